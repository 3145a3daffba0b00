import { setTimeout as sleep } from "node:timers/promises";

export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Says what was awaited, in the timeout error; a function is read at the timeout (what it saw by then). */
  description?: string | (() => string);
}

type Falsy = undefined | null | false | 0 | "";

/** What `waitFor` polls: anything truthy ends the wait and becomes its result. */
export type WaitCheck<T> = () => T | Falsy | Promise<T | Falsy>;

/**
 * Polls `check` in real time until it returns something truthy, and resolves with it. A check
 * that throws counts as "not yet" (HA may be restarting); its last error is in the timeout message.
 */
export async function waitFor<T>(check: WaitCheck<T>, options: WaitForOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const because = lastError === undefined ? "" : ` (last error: ${messageOf(lastError)})`;
      const what = typeof options.description === "function" ? options.description() : options.description;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? "a condition"}${because}`);
    }
    await sleep(intervalMs);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
