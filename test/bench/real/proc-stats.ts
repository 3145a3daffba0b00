import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/** Clock ticks per second of /proc's CPU times (100 on nearly every Linux). */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Resident memory of a process, from /proc/<pid>/status. */
export interface ResidentMemory {
  /** VmRSS: every resident page of the process. */
  rssBytes: number;
  /** RssAnon: its heap, stacks and other private memory (what the bridge itself costs). */
  anonBytes: number;
  /** RssFile: resident pages of mapped files, mostly the node binary (shared with other node processes). */
  fileBytes: number;
}

export interface ProcSample extends ResidentMemory {
  /** Wall time of the sample (Date.now()). */
  at: number;
  /** User + system CPU time of the process itself, and of its children it has reaped. */
  cpuMs: number;
}

interface Stat {
  pid: number;
  ppid: number;
  cpuTicks: number;
}

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
async function readStat(pid: number): Promise<Stat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (!text) return undefined;
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // Field n of proc(5) is rest[n - 3]: ppid 4, utime 14, stime 15, cutime 16, cstime 17.
  const field = (n: number) => Number(rest[n - 3]);
  return { pid, ppid: field(4), cpuTicks: field(14) + field(15) + field(16) + field(17) };
}

/** VmRSS, RssAnon and RssFile of a /proc/<pid>/status text (kB there, bytes here; 0 when absent). */
export function parseResidentMemory(status: string): ResidentMemory {
  const bytes = (field: string) => {
    const kib = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status)?.[1];
    return kib === undefined ? 0 : Number(kib) * 1024;
  };
  return { rssBytes: bytes("VmRSS"), anonBytes: bytes("RssAnon"), fileBytes: bytes("RssFile") };
}

async function readMemory(pid: number): Promise<ResidentMemory> {
  return parseResidentMemory(await readFile(`/proc/${pid}/status`, "utf8").catch(() => ""));
}

async function allStats(): Promise<Stat[]> {
  const names = await readdir("/proc");
  const stats = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readStat(Number(n))));
  return stats.filter((s): s is Stat => s !== undefined);
}

/** Direct children of this process whose command line contains `marker`. */
export async function ownChildrenRunning(marker: string): Promise<number[]> {
  const stats = (await allStats()).filter((s) => s.ppid === process.pid);
  const matching: number[] = [];
  for (const stat of stats) {
    const cmdline = await readFile(`/proc/${stat.pid}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(marker)) matching.push(stat.pid);
  }
  return matching;
}

export async function sampleProcess(pid: number): Promise<ProcSample | undefined> {
  const stat = await readStat(pid);
  if (!stat) return undefined;
  return {
    at: Date.now(),
    cpuMs: (stat.cpuTicks * 1000) / ticksPerSecond,
    ...(await readMemory(pid)),
  };
}

/** Samples a process every `intervalMs` until stopped. */
export class ProcSampler {
  readonly samples: ProcSample[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly pid: number,
    readonly intervalMs: number,
  ) {}

  async start(): Promise<this> {
    await this.sampleNow();
    this.#timer = setInterval(() => void this.sampleNow(), this.intervalMs);
    return this;
  }

  async sampleNow(): Promise<ProcSample | undefined> {
    const sample = await sampleProcess(this.pid);
    if (sample) this.samples.push(sample);
    return sample;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.sampleNow();
  }
}
