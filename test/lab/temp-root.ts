import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * Vitest's global setup: the run's temporary folders all go under one, removed when the run ends.
 * The suites make a data dir for nearly every bridge and engine they start, and the programs they
 * spawn (bridges, Home Assistant, Mosquitto, Chromium) make their own; left in the machine's
 * temporary directory, a run left about a hundred folders behind. TMPDIR is set here, before the
 * workers start, so that os.tmpdir() in them and in every process they spawn names the run's folder.
 */

const MACHINE_TMPDIR = "REWARD_FACTS_MACHINE_TMPDIR";

/**
 * The machine's temporary directory, not the run's: for what outlives a run or is shared with
 * other runs (install locks, screenshots to look at afterwards).
 */
export function machineTmpdir(): string {
  return process.env[MACHINE_TMPDIR] || tmpdir();
}

export default async function setup(): Promise<() => Promise<void>> {
  const machine = machineTmpdir();
  const previous = process.env.TMPDIR;
  const root = await mkdtemp(join(machine, "rf-test-run-"));
  process.env[MACHINE_TMPDIR] = machine;
  process.env.TMPDIR = root;
  return async () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    await rm(root, { recursive: true, force: true });
  };
}
