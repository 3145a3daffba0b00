import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// The virtual-time scenarios run inside Vitest (VirtualTime drives its fake timers); the bench's
// entry starts them in a child process and passes parameters and the result directory by env.

export const PARAMS_ENV = "REWARD_FACTS_BENCH_PARAMS";
export const OUT_ENV = "REWARD_FACTS_BENCH_OUT";

export function scenarioParams<T>(name: string): T | undefined {
  const raw = process.env[PARAMS_ENV];
  if (!raw) return undefined;
  return (JSON.parse(raw) as Record<string, T | undefined>)[name];
}

export function writeScenarioResult(file: string, value: unknown): void {
  const dir = process.env[OUT_ENV];
  if (!dir) throw new Error(`${OUT_ENV} is not set: run the scenarios through npm run bench`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(value, null, 2)}\n`);
}
