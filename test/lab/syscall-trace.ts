import { readFileSync } from "node:fs";
import { ensureDebianProgram } from "./debian-package.js";

/*
 * What a process asked of the kernel, as strace saw it: which file it wrote, which it forced to
 * disk, which it renamed, and when a byte left it on a socket. What a power cut keeps is what was
 * forced to disk (fsync, fdatasync) before it; the trace shows that order from outside the process,
 * on the real kernel, without touching the code it watches. Debian's strace, installed on first
 * use as the suites' other programs are; where it cannot be had, the run fails and says so.
 */

const STRACE = "/usr/bin/strace";

/** The calls a trace keeps: writes (files and sockets), what forces them to disk, renames. */
const TRACED = [
  "write",
  "writev",
  "pwrite64",
  "pwritev",
  "pwritev2",
  "sendto",
  "sendmsg",
  "fsync",
  "fdatasync",
  "rename",
  "renameat",
  "renameat2",
];

export interface SyscallTraceLaunch {
  command: string;
  args: string[];
}

/** One finished call: its name, the file or socket of its first argument (strace -yy), its result. */
export interface TracedCall {
  pid: number;
  name: string;
  /** What strace names the first argument's descriptor: a path, or `TCP:[a->b]`; "" for none. */
  target: string;
  /** The arguments as strace printed them (paths in full, data left out). */
  args: string;
  result: number;
}

export function ensureStrace(): Promise<void> {
  return ensureDebianProgram({ neededBy: "the power-cut tests", binary: STRACE, packages: ["strace"] });
}

/** `command args…` run under strace, every thread followed, the calls above written to `traceFile`. */
export function underStrace(launch: SyscallTraceLaunch, traceFile: string): SyscallTraceLaunch {
  return {
    command: STRACE,
    args: [
      "-f",
      "--seccomp-bpf",
      "-qq",
      "-yy",
      "-s",
      "0",
      "-e",
      `trace=${TRACED.join(",")}`,
      "-o",
      traceFile,
      "--",
      launch.command,
      ...launch.args,
    ],
  };
}

/**
 * SIGTERM to the command strace runs as `stracePid` (strace itself lets it live on): strace then
 * writes out the rest of the trace and exits with it.
 */
export function stopTracedCommand(stracePid: number): void {
  const children = readFileSync(`/proc/${stracePid}/task/${stracePid}/children`, "utf8").trim().split(/\s+/);
  for (const pid of children.filter(Boolean)) process.kill(Number(pid), "SIGTERM");
}

const START = /^(\d+) +(\w+)\((.*)$/;
const RESUMED = /^(\d+) +<\.\.\. (\w+) resumed>(.*)$/;
const UNFINISHED = " <unfinished ...>";

/**
 * The calls of a trace in the order they were made, a call another thread interrupted joined back
 * with its end. Calls still unfinished when the trace ends (the process killed) are left out.
 */
export function parseSyscallTrace(text: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const unfinished = new Map<number, { name: string; head: string; index: number }>();
  const slots: Array<TracedCall | undefined> = [];
  for (const line of text.split("\n")) {
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const pid = Number(resumed[1]);
      const begun = unfinished.get(pid);
      if (!begun) continue;
      unfinished.delete(pid);
      slots[begun.index] = finished(pid, begun.name, `${begun.head}${resumed[3]}`);
      continue;
    }
    const start = START.exec(line);
    if (!start) continue;
    const [, pidText, name, rest] = start as unknown as [string, string, string, string];
    const pid = Number(pidText);
    if (rest.endsWith(UNFINISHED)) {
      // Kept in its place: the call began here, whatever finished in between.
      unfinished.set(pid, { name, head: rest.slice(0, -UNFINISHED.length), index: slots.length });
      slots.push(undefined);
    } else {
      slots.push(finished(pid, name, rest));
    }
  }
  for (const call of slots) if (call) calls.push(call);
  return calls;
}

function finished(pid: number, name: string, rest: string): TracedCall | undefined {
  const end = / = (-?\d+)(?: \w+ \(.*\))?$/.exec(rest);
  if (!end) return undefined;
  const args = rest.slice(0, end.index).trimEnd().replace(/\)$/, "");
  const target = /^-?\d+<(.*?)>(?:, |$)/.exec(args)?.[1] ?? "";
  return { pid, name, target, args, result: Number(end[1]) };
}
