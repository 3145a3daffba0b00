// What ws and write-file-atomic take from node:crypto, without loading it: in the bundle, their
// require of it gets this module (bundle-stand-ins.ts). Loading node:crypto sets up
// OpenSSL's algorithms and some twenty modules of Node's own, for two SHA-1 digests at the
// WebSocket handshake, a few random bytes per frame sent to Home Assistant, and the names of the
// store's temporary files. Without it, 3 children over REST to Home Assistant, over the bench's
// window (10-250 s), one scratch run each side by side (2026-11-27): anonymous RSS 14.82 against
// 15.43 MiB on Node 26 and 15.41 against 15.93 on musl Node 24, file-backed 1 MiB less.
//
// The digests are @noble/hashes' (audited, plain JavaScript), the bytes the kernel's own
// cryptographic source, /dev/urandom, which OpenSSL seeds from too. Anything else, or no
// /dev/urandom (not Linux), is handed to the real module, loaded then.
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";

type NodeCrypto = typeof import("node:crypto");

const nodeRequire = createRequire(import.meta.url);
let real: NodeCrypto | undefined;
const nodeCrypto = (): NodeCrypto => {
  real ??= nodeRequire("node:crypto") as NodeCrypto;
  return real;
};

const DIGESTS: Record<string, typeof sha1> = { sha1, sha256 };

/** A hash as node:crypto's `createHash(algorithm)` gives one: `update()` chained, then `digest()`. */
class StandInHash {
  readonly #hash: ReturnType<typeof sha1.create>;

  constructor(digest: typeof sha1) {
    this.#hash = digest.create();
  }

  update(data: string | Uint8Array): this {
    this.#hash.update(typeof data === "string" ? Buffer.from(data, "utf8") : data);
    return this;
  }

  digest(): Buffer;
  digest(encoding: BufferEncoding): string;
  digest(encoding?: BufferEncoding): Buffer | string {
    const bytes = Buffer.from(this.#hash.digest());
    return encoding === undefined ? bytes : bytes.toString(encoding);
  }
}

export function createHash(algorithm: string, ...rest: unknown[]): unknown {
  const digest = DIGESTS[algorithm.toLowerCase()];
  if (digest === undefined || rest.length > 0) return nodeCrypto().createHash(algorithm, ...(rest as []));
  return new StandInHash(digest);
}

/** Fills `buffer[offset, offset + size)` from /dev/urandom; false when it cannot be read. */
function fillFromKernel(buffer: Uint8Array, offset: number, size: number): boolean {
  let fd: number;
  try {
    fd = openSync("/dev/urandom", "r");
  } catch {
    return false;
  }
  try {
    let done = 0;
    while (done < size) {
      const read = readSync(fd, buffer, offset + done, size - done, null);
      if (read <= 0) return false;
      done += read;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

export function randomFillSync<T extends Uint8Array>(
  buffer: T,
  offset = 0,
  size = buffer.byteLength - offset,
): T {
  if (!fillFromKernel(buffer, offset, size)) nodeCrypto().randomFillSync(buffer, offset, size);
  return buffer;
}

export function randomBytes(size: number, ...callback: unknown[]): Buffer {
  if (callback.length > 0) return nodeCrypto().randomBytes(size, ...(callback as [])) as unknown as Buffer;
  return randomFillSync(Buffer.alloc(size));
}
