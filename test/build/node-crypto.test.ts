import * as nodeCrypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHash, randomBytes, randomFillSync } from "../../src/build/node-crypto.js";

// What ws and write-file-atomic take from node:crypto, in the bundle (src/build/bundle-stand-ins.ts): the
// same digests, and bytes from the kernel. That the bundle then loads no node:crypto, and that
// ws's handshake passes with a real Home Assistant, is test/addon/built-bridge.test.ts's part.

const hashes = (algorithm: string) => [
  createHash(algorithm) as nodeCrypto.Hash,
  nodeCrypto.createHash(algorithm),
];

describe("the bundle's stand-in for node:crypto", () => {
  it("digests as node:crypto does: ws's handshake key, write-file-atomic's chained updates", () => {
    // The key and accept value of RFC 6455's own example.
    const [ours] = hashes("sha1");
    expect(
      (ours as nodeCrypto.Hash)
        .update("dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
        .digest("base64"),
    ).toBe("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    for (const algorithm of ["sha1", "SHA256"]) {
      const [a, b] = hashes(algorithm) as [nodeCrypto.Hash, nodeCrypto.Hash];
      for (const part of ["/app/main.js", "1", Buffer.from([0, 255, 7]), "é✓"]) {
        a.update(part);
        b.update(part);
      }
      const digest = a.digest();
      expect(Buffer.isBuffer(digest)).toBe(true);
      expect(digest.equals(b.digest())).toBe(true);
    }
    // Another algorithm: node:crypto's own.
    const [md5] = hashes("md5") as [nodeCrypto.Hash];
    expect(md5.update("x").digest("hex")).toBe(nodeCrypto.createHash("md5").update("x").digest("hex"));
  });

  it("fills only the range asked for, with bytes that differ from call to call", () => {
    const pool = Buffer.alloc(64);
    expect(randomFillSync(pool, 8, 48)).toBe(pool);
    expect(pool.subarray(0, 8).equals(Buffer.alloc(8))).toBe(true);
    expect(pool.subarray(56).equals(Buffer.alloc(8))).toBe(true);
    // 48 random bytes all zero: a chance of 2^-384.
    expect(pool.subarray(8, 56).equals(Buffer.alloc(48))).toBe(false);
    const [a, b] = [randomBytes(16), randomBytes(16)];
    expect(a).toHaveLength(16);
    expect(a.equals(b)).toBe(false);
  });
});
