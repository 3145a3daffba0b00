import { spawn } from "node:child_process";

/*
 * Node has no flock(2), and a lock directory needs guesswork about staleness (was its owner
 * killed, or is it just slow?). A tiny Python child holds a kernel lock instead: the kernel drops
 * it the moment that child dies, and the child dies as soon as its stdin closes — when we release,
 * or when this process dies in any way, SIGKILL included. No stale lock can survive.
 */
const holderScript = [
  "import fcntl, sys",
  "handle = open(sys.argv[1], 'a')",
  "fcntl.flock(handle, fcntl.LOCK_EX)",
  "sys.stdout.write('locked\\n')",
  "sys.stdout.flush()",
  "sys.stdin.read()",
].join("\n");

export interface HeldLock {
  release(): Promise<void>;
}

export interface LockOptions {
  python: string;
  timeoutMs: number;
  /** Called once if the lock is not granted at once (someone else holds it). */
  onWait?: () => void;
}

/** Takes an exclusive lock on `path` (created if missing), shared with other processes. */
export function acquireFileLock(path: string, options: LockOptions): Promise<HeldLock> {
  return new Promise((resolve, reject) => {
    const holder = spawn(options.python, ["-c", holderScript, path], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    let settled = false;
    const exited = new Promise<void>((done) => holder.on("close", () => done()));
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(waitNotice);
      clearTimeout(timer);
      holder.kill("SIGKILL");
      reject(new Error(message));
    };
    const waitNotice = setTimeout(() => options.onWait?.(), 1_000);
    const timer = setTimeout(
      () => fail(`timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for the lock ${path}`),
      options.timeoutMs,
    );
    holder.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    holder.on("error", (error) => fail(`cannot start ${options.python} to lock ${path}: ${error.message}`));
    holder.on("close", (code) =>
      fail(`the lock holder for ${path} exited (${code}) before locking: ${stderr}`),
    );
    holder.stdout.on("data", (chunk: Buffer) => {
      if (settled || !chunk.toString("utf8").includes("locked")) return;
      settled = true;
      clearTimeout(waitNotice);
      clearTimeout(timer);
      resolve({
        release: async () => {
          holder.stdin.end();
          await exited;
        },
      });
    });
  });
}
