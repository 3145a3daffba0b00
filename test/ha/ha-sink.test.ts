import diagnostics from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiEvent, CalmDay, TodayPayload } from "../../src/api/schemas.js";
import {
  type EngineStatus,
  type FactDelivery,
  NotDeliveredError,
  SinkRefusedError,
} from "../../src/engine/sink.js";
import type { HomeAssistantSink } from "../../src/ha/ha-sink.js";
import { TOKEN_NOTIFICATION_ID } from "../../src/ha/index.js";
import {
  HomeAssistantAuthError,
  HomeAssistantConnectionError,
  HomeAssistantError,
  toHomeAssistantError,
} from "../../src/ha/link/errors.js";
import { silentLogger } from "../../src/log/logger.js";
import {
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { ownLinkSink } from "../support/own-link-sink.js";

// The publisher in this process against a real Home Assistant: what the end-to-end test cannot
// reach quickly (the notification's dismissal, unchanged states left unwritten, refusals).

const version = testedHomeAssistantVersion();
let ha: HomeAssistantInstance;
let sink: HomeAssistantSink;
const abort = new AbortController();
const child = { id: "0d6f1c2e-0000-4000-8000-00000000c0de", firstName: "Zoé" };
const today: TodayPayload = {
  date: "2026-11-21",
  isMyDay: true,
  period: "school",
  points: 3,
  maxPoints: 8,
  minutesUnlocked: 15,
  minutesConsumed: 5,
  minutesRemaining: 10,
  consumableToday: true,
  mandatoryOk: true,
  perfect: false,
  frozen: false,
  joker: false,
  nextTier: null,
  behaviors: [],
  session: null,
  streakDays: 2,
};
const status: EngineStatus = {
  state: "ok",
  requestsLastMinute: 3,
  budgetPerMinute: 28,
  demandPerMinute: 3.1,
  stretch: 1,
  todayStretch: 1,
  children: [child],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: Date.now(),
};
const readAt = Date.now();

/** POSTs to /api/states seen on undici's diagnostics channel while `action` runs. */
async function statePostsDuring(action: () => Promise<void>): Promise<number> {
  let posts = 0;
  const onCreate = (message: unknown) => {
    const { request } = message as { request: { method: string; path: string } };
    if (request.method === "POST" && request.path.startsWith("/api/states/")) posts++;
  };
  diagnostics.subscribe("undici:request:create", onCreate);
  try {
    await action();
  } finally {
    diagnostics.unsubscribe("undici:request:create", onCreate);
  }
  return posts;
}

function deliveryOf(event: ApiEvent): FactDelivery {
  return { event, ageSeconds: 1, replayed: false, inDoubt: false, lastReceipt: undefined, uncertain: false };
}

async function notifications(): Promise<Array<{ notification_id: string }>> {
  return ha.wsCommand({ type: "persistent_notification/get" });
}

beforeAll(async () => {
  ha = await startHomeAssistant({ version });
  sink = ownLinkSink({ url: ha.url, token: ha.token, logger: silentLogger(), requireAdmin: true });
  await sink.open();
  await sink.whenReady(abort.signal);
  await sink.setChildren([child]);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  abort.abort();
  await sink?.close();
  await ha?.stop();
});

describe(`HomeAssistantSink against a real Home Assistant ${version}`, () => {
  it("knows Home Assistant's time zone", () => {
    expect(sink.timeZone()).toBe("Europe/Paris");
  });

  it("writes only the states that changed", async () => {
    const first = await statePostsDuring(() => sink.publishToday(child, today, readAt));
    // Every entity of a child's day at first, screen_time_allowed among them.
    expect(first).toBe(13);
    expect((await ha.getState("binary_sensor.reward_facts_zoe_screen_time_allowed"))?.state).toBe("on");
    expect((await ha.getState("sensor.reward_facts_zoe_minutes_remaining"))?.state).toBe("10");
    // The same answer read again a minute later: nothing to write (last_read waits for its refresh).
    expect(await statePostsDuring(() => sink.publishToday(child, today, readAt + 60_000))).toBe(0);
    const changed = await statePostsDuring(() =>
      sink.publishToday(child, { ...today, minutesConsumed: 6, minutesRemaining: 9 }, readAt + 1_000),
    );
    expect(changed).toBe(2);
    expect((await ha.getState("sensor.reward_facts_zoe_minutes_remaining"))?.state).toBe("9");
    const calm: CalmDay = { date: "2026-11-22", isMyDay: false };
    await sink.publishToday(child, calm, readAt + 2_000);
    expect((await ha.getState("binary_sensor.reward_facts_zoe_my_day"))?.state).toBe("off");
  });

  it("raises the token notification on token_invalid and dismisses it when the token works again", async () => {
    await sink.publishStatus({
      ...status,
      state: "token_invalid",
      lastError: "API token missing, unknown or revoked",
    });
    expect((await notifications()).map((n) => n.notification_id)).toContain(TOKEN_NOTIFICATION_ID);
    expect((await ha.getState("sensor.reward_facts_status"))?.state).toBe("token_invalid");
    await sink.publishStatus(status);
    expect((await notifications()).map((n) => n.notification_id)).not.toContain(TOKEN_NOTIFICATION_ID);
    expect((await ha.getState("sensor.reward_facts_status"))?.state).toBe("ok");
  });

  it("marks a child unavailable with the reason, then available again", async () => {
    await sink.markUnavailable(child, "api_unreachable");
    const points = await ha.getState("sensor.reward_facts_zoe_points");
    expect(points?.state).toBe("unavailable");
    expect(points?.attributes.reason).toBe("API unreachable");
    await sink.publishToday(child, today, readAt);
    expect((await ha.getState("sensor.reward_facts_zoe_points"))?.state).toBe("3");
  });

  it("republishes every state after a restart, and refuses events until Home Assistant runs again", async () => {
    const restarted = ha.restart();
    // While Home Assistant is away, an event is refused as not delivered, never lost in between.
    await ha.waitFor(() => (sink.ready ? undefined : true), { timeoutMs: 30_000, intervalMs: 20 });
    const event = {
      id: "e-restart",
      at: "2026-11-21T10:00:00.000Z",
      day: "2026-11-21",
      childId: child.id,
      type: "cheer_sent" as const,
      cheer: "seen" as const,
    };
    await expect(sink.publishEvent(child, deliveryOf(event))).rejects.toBeInstanceOf(NotDeliveredError);
    await restarted;
    const back = Date.now();
    await sink.whenReady(abort.signal);
    await ha.waitFor(() => ha.getState("sensor.reward_facts_zoe_points"), {
      timeoutMs: 10_000,
      intervalMs: 200,
    });
    expect(Date.now() - back).toBeLessThan(10_000);
    expect((await ha.getState("sensor.reward_facts_status"))?.state).toBe("ok");
    const recorder = await ha.subscribeEvents("reward_facts_event");
    try {
      await sink.publishEvent(child, deliveryOf(event));
      const fired = await ha.waitFor(() => recorder.events[0], { timeoutMs: 5_000 });
      expect(fired.data).toMatchObject({ event_id: "e-restart", child: "zoe", cheer: "seen" });
    } finally {
      await recorder.close();
    }
  }, 120_000);

  it("notices a Home Assistant that stops answering (no pong) and reconnects once it is back", async () => {
    const watched = ownLinkSink({
      url: ha.url,
      token: ha.token,
      logger: silentLogger(),
      requireAdmin: true,
      heartbeatMs: 500,
      pongTimeoutMs: 1_000,
    });
    await watched.open();
    await watched.whenReady(abort.signal);
    ha.freeze(true);
    try {
      // The socket stays open while HA is frozen: only the missing pong can tell.
      await ha.waitFor(() => (watched.ready ? undefined : true), { timeoutMs: 10_000, intervalMs: 100 });
    } finally {
      ha.freeze(false);
    }
    await watched.whenReady(abort.signal);
    expect(watched.ready).toBe(true);
    await watched.close();
  }, 60_000);

  it("refuses a token Home Assistant does not know with a typed error", async () => {
    const stranger = ownLinkSink({
      url: ha.url,
      token: "not-a-token",
      logger: silentLogger(),
      requireAdmin: true,
    });
    const refused = await stranger.open().then(
      () => undefined,
      (error: unknown) => error,
    );
    // What the app sees (a person must act), carrying what Home Assistant said.
    expect(refused).toBeInstanceOf(SinkRefusedError);
    expect((refused as Error).cause).toBeInstanceOf(HomeAssistantAuthError);
    expect((refused as Error).message).not.toContain("not-a-token");
    await stranger.close();
  });
});

describe("toHomeAssistantError", () => {
  it("turns the library's numbers and plain objects into typed Errors", () => {
    expect(toHomeAssistantError(2)).toBeInstanceOf(HomeAssistantAuthError);
    expect(toHomeAssistantError(1)).toBeInstanceOf(HomeAssistantConnectionError);
    const lost = toHomeAssistantError({
      type: "result",
      success: false,
      error: { code: 3, message: "Connection lost" },
    });
    expect(lost).toBeInstanceOf(HomeAssistantConnectionError);
    const refused = toHomeAssistantError({ code: "unauthorized", message: "Unauthorized" });
    expect(refused).toBeInstanceOf(HomeAssistantError);
    expect(refused).not.toBeInstanceOf(HomeAssistantConnectionError);
    expect(refused.message).toBe("Unauthorized");
    const error = new Error("kept");
    expect(toHomeAssistantError(error)).toBe(error);
  });
});
