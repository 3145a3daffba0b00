import { hostname } from "node:os";
import { request } from "../../http/undici.js";
import { contractNames } from "../entities/entity-names.js";
import { HomeAssistantHttpError } from "../link/errors.js";
import { judgeLease, type LeaseAsker, type LeaseHolder, type LeaseReading } from "./lease.js";

// The household lease as read from Home Assistant: its state through REST rather than the link,
// for the answer's Date header (Home Assistant's clock, which judges the lease's age; a websocket
// answer carries none), and who holds it alive, as a run that is no bridge sees it.

/**
 * Five minutes: each renewal is a state change Home Assistant's recorder keeps (once a minute
 * would be 1,440 rows a day of bookkeeping). A restart in place never waits for it (same instance,
 * or the holder's process gone from this host): only a bridge on another host waits out the
 * fifteen minutes after the first was killed.
 */
export const DEFAULT_BEAT_MS = 5 * 60_000;
const READ_TIMEOUT_MS = 3_000;
/**
 * Whether a process of this host runs. This process's own pid is another's that ran before it
 * (a container restarted gives the bridge the same pid): gone.
 */
export function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The lease's value and its age by Home Assistant's clock: its answer's Date against the helper's
 * last_updated. Without a Date (a proxy that drops it), this host's clock stands in.
 */
export async function readLease(access: { url: string; token: string }): Promise<LeaseReading> {
  const entityId = `input_text.${contractNames.leaseHelper}`;
  const response = await request(`${access.url}/api/states/${entityId}`, {
    headers: { authorization: `Bearer ${access.token}` },
    // A Home Assistant that does not answer is tried again at the next beat; a stop does not wait.
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  if (response.statusCode === 404) {
    await response.body.dump();
    return { value: undefined, ageMs: undefined };
  }
  if (response.statusCode >= 300) {
    await response.body.dump();
    throw new HomeAssistantHttpError(
      `Home Assistant answered ${response.statusCode} to GET /api/states/${entityId}`,
      response.statusCode,
    );
  }
  const state = (await response.body.json()) as { state?: unknown; last_updated?: unknown };
  const date = response.headers.date;
  const now = Date.parse(typeof date === "string" ? date : "") || Date.now();
  const written = Date.parse(typeof state.last_updated === "string" ? state.last_updated : "");
  return {
    value: typeof state.state === "string" ? state.state : undefined,
    ageMs: Number.isFinite(written) ? Math.max(0, now - written) : undefined,
  };
}

/**
 * Who holds the lease now and is alive, as a run that is no bridge sees it (the removal step): a
 * holder on this host whose process is gone (the add-on restarted into its removal) holds nothing.
 */
export async function livingHolder(access: { url: string; token: string }): Promise<LeaseHolder | undefined> {
  const asker: LeaseAsker = { id: "", run: "", host: hostname(), isRunning };
  const judged = judgeLease(await readLease(access), asker, 3 * DEFAULT_BEAT_MS);
  return judged.kind === "taken" ? judged.holder : undefined;
}
