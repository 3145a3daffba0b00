import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SinkRefusedError } from "../../../src/engine/sink.js";
import { contractNames } from "../../../src/ha/entities/entity-names.js";
import { type HeldLease, holdHouseholdLease } from "../../../src/ha/household/household-lease.js";
import { livingHolder, readLease } from "../../../src/ha/household/lease-reading.js";
import type { HomeAssistantLink } from "../../../src/ha/link/connection.js";
import { homeAssistantLink } from "../../../src/ha/link/home-assistant-link.js";
import { ANOTHER_BRIDGE_NOTIFICATION_ID } from "../../../src/ha/link/notifications.js";
import {
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../../lab/index.js";
import { LogCollector } from "../../support/engine-rig.js";

const version = testedHomeAssistantVersion();

// The household lease held in this process against a real Home Assistant: the bridges of
// one-bridge.test.ts each in a process of their own show what a household sees; here each turn of
// the lease is driven and read directly (a copy's wait, a helper Home Assistant lost, a lease
// another run took, the removal's question, a refused token). Beats of a second: it expires after
// three.

const BEAT_MS = 1_000;
const leaseEntity = `input_text.${contractNames.leaseHelper}`;
let ha: HomeAssistantInstance;
const held: HeldLease[] = [];
/** Each lease's link, closed after the lease is released (as the app does). */
const links: HomeAssistantLink[] = [];
const aborts: AbortController[] = [];
const intervals: NodeJS.Timeout[] = [];

beforeAll(async () => {
  ha = await startHomeAssistant({ version });
}, 300_000);

afterEach(async () => {
  for (const interval of intervals.splice(0)) clearInterval(interval);
  for (const abort of aborts.splice(0)) abort.abort();
  for (const lease of held.splice(0)) await lease.release().catch(() => undefined);
  for (const link of links.splice(0)) link.close();
});

afterAll(async () => {
  await ha?.stop();
});

/** Writes the lease's helper as another run would, made first when this test is the first to use it. */
async function writeLease(value: string): Promise<void> {
  const helpers = await ha.wsCommand<Array<{ id: string }>>({ type: "input_text/list" });
  if (!helpers.some((helper) => helper.id === contractNames.leaseHelper))
    await ha.wsCommand({ type: "input_text/create", name: contractNames.leaseHelper, max: 255 });
  await ha.callService("input_text", "set_value", { entity_id: leaseEntity, value });
}

/** A lease as a bridge of identity `instanceId` holds it, with its log and what it was told of a loss. */
function leaseOf(instanceId: string, token = ha.token) {
  const logs = new LogCollector();
  const lost: Error[] = [];
  const abort = new AbortController();
  aborts.push(abort);
  const logger = logs.logger([ha.token]);
  const link = homeAssistantLink({ url: ha.url, token, requireAdmin: true }, { logger });
  links.push(link);
  const holding = holdHouseholdLease({
    link,
    access: { url: ha.url, token },
    logger,
    instanceId,
    mode: "standalone",
    beatMs: BEAT_MS,
    onLost: (error) => lost.push(error),
    signal: abort.signal,
  }).then((lease) => {
    held.push(lease);
    return lease;
  });
  return { holding, logs, lost };
}

describe(`the household lease in Home Assistant ${version}`, () => {
  it("makes its helper hidden, holds this run's token, and is given up by a clean stop", async () => {
    const first = leaseOf("bridge-a");
    const lease = await first.holding;
    const state = await ha.getState(leaseEntity);
    expect(state?.state).toContain(`"run":"${lease.guard.run}"`);
    expect(lease.guard.entityId).toBe(leaseEntity);
    const entry = await ha.wsCommand<{ hidden_by: string | null }>({
      type: "config/entity_registry/get",
      entity_id: leaseEntity,
    });
    expect(entry.hidden_by).toBe("user");
    // Its age is Home Assistant's, from the answer's own Date: just written.
    const reading = await readLease({ url: ha.url, token: ha.token });
    expect(reading.value).toBe(state?.state);
    expect(reading.ageMs).toBeGreaterThanOrEqual(0);
    expect(reading.ageMs).toBeLessThan(60_000);
    held.splice(held.indexOf(lease), 1);
    await lease.release();
    expect((await ha.getState(leaseEntity))?.state).toBe("");
  });

  it("a run of the same identity on another host (a copied data directory) waits, said in its own line, and takes over once it stops", async () => {
    // The original's lease, as its process on the other host wrote it a moment ago. (Two leases
    // of one identity in this one process would be one run restarted in place: the copy on its
    // own host is a process of its own in one-bridge.test.ts.)
    const original = (beat: Date) =>
      `{"id":"bridge-copied","run":"0a0a0a0a0a0a","host":"elsewhere","mode":"addon","pid":1,"since":"2026-11-29T00:00:00Z","beat":"${beat.toISOString()}"}`;
    await writeLease(original(new Date()));
    // Renewed twice a beat, as the original's own beats do: never silent for the copy.
    let renewal: Promise<void> = Promise.resolve();
    const renewing = setInterval(() => {
      renewal = writeLease(original(new Date()));
    }, BEAT_MS / 2);
    intervals.push(renewing);
    const copy = leaseOf("bridge-copied");
    let taken = false;
    void copy.holding.then(() => {
      taken = true;
    });
    await ha.waitFor(() => copy.logs.matching(/runs with this bridge's own identity/).length > 0, {
      description: "the copy's line",
    });
    expect(taken).toBe(false);
    expect(copy.logs.matching(/runs with this bridge's own identity/)[0]?.msg).toContain(
      "give this one a data directory of its own",
    );
    const notification = await ha.waitFor(async () =>
      (
        await ha.wsCommand<Array<{ notification_id: string; message: string }>>({
          type: "persistent_notification/get",
        })
      ).find((each) => each.notification_id === ANOTHER_BRIDGE_NOTIFICATION_ID),
    );
    expect(notification?.message).toContain("elsewhere");
    // The removal's question, asked meanwhile: the original holds it.
    expect((await livingHolder({ url: ha.url, token: ha.token }))?.id).toBe("bridge-copied");
    // Still waiting after the lease's life: a copy never takes a lease its original renews.
    await new Promise((resolve) => setTimeout(resolve, 4 * BEAT_MS));
    expect(taken).toBe(false);

    // The original stops cleanly: the copy takes over within a beat or two, said once.
    clearInterval(renewing);
    await renewal;
    await writeLease("");
    const lease = await copy.holding;
    expect((await ha.getState(leaseEntity))?.state).toContain(`"run":"${lease.guard.run}"`);
    expect(copy.logs.matching(/the other bridge's household lease ended/)).toHaveLength(1);
    expect(copy.logs.matching(/runs with this bridge's own identity/)).toHaveLength(1);
    expect(copy.logs.raw.join("\n")).not.toContain(ha.token);
  });

  it("writes its helper again when Home Assistant lost it (killed before it saved it): still this run's", async () => {
    const lease = await leaseOf("bridge-b").holding;
    await ha.wsCommand({ type: "input_text/delete", input_text_id: contractNames.leaseHelper });
    expect(await ha.getState(leaseEntity)).toBeNull();
    expect(await lease.check()).toBe(true);
    expect((await ha.getState(leaseEntity))?.state).toContain(`"run":"${lease.guard.run}"`);
  });

  it("another run that took the lease: judged lost once, told once, never written over", async () => {
    const mine = leaseOf("bridge-c");
    const lease = await mine.holding;
    const other = `{"id":"bridge-d","run":"0123456789ab","host":"elsewhere","mode":"addon","pid":1,"since":"2026-11-29T00:00:00Z","beat":"2026-11-29T00:00:00Z"}`;
    await writeLease(other);
    expect(await lease.check()).toBe(false);
    expect(await lease.check()).toBe(false);
    expect(mine.lost).toHaveLength(1);
    expect(mine.lost[0]?.message).toContain("another Reward Facts bridge took over publishing");
    expect(mine.lost[0]?.message).toContain("elsewhere");
    // The beat no longer writes it either.
    await new Promise((resolve) => setTimeout(resolve, 3 * BEAT_MS));
    expect((await ha.getState(leaseEntity))?.state).toBe(other);
    expect((await livingHolder({ url: ha.url, token: ha.token }))?.id).toBe("bridge-d");
    await writeLease("");
  });

  it("a token Home Assistant refuses: SinkRefusedError, the error a person must fix", async () => {
    const refused = leaseOf("bridge-e", "not-a-token-of-this-home-assistant");
    const error = await refused.holding.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SinkRefusedError);
  });
});
