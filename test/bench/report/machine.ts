import { readFile } from "node:fs/promises";
import { cpus, release, totalmem, type } from "node:os";

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
}

/** The machine a run was made on, as the results file states it. */
export async function describeMachine(): Promise<Machine> {
  const cores = cpus();
  const osRelease = await readFile("/etc/os-release", "utf8").catch(() => "");
  const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1];
  return {
    cpu: cores[0]?.model.trim() ?? "unknown",
    cores: cores.length,
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${pretty ?? type()} (${type()} ${release()})`,
  };
}

export function machineLine(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} logical cores, ${machine.ramGiB} GiB RAM; Node ${machine.node}; ${machine.os}`;
}
