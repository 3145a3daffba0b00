import { busiestMinute } from "../../support/busiest-minute.js";
import { type Summary, summarize } from "../stats.js";
import { restEntities } from "./rest-config.js";
import type { SideObservation } from "./run-side.js";

export type Client = "bridge" | "rest";

export interface ClientMetrics {
  perMinuteMean: number;
  perMinuteMax: number;
  rateLimited: number;
  /** Journal facts recorded in the window, and how many of them an automation saw. */
  facts: number;
  reached: number;
  repeats: number;
  /** Automation runs on a fact recorded before the window (a catch-up, or a stale page). */
  olderFacts: number;
  /** Automation runs on something that is no fact: none, unknown, an empty string. */
  notFacts: number;
  eventStaleness: Summary & { missing: number };
  todayStaleness: Summary & { missing: number };
  /** Today sensors of the readable children that turned non-numeric in the window. */
  todayGlitches: number;
  calmDay: string;
  unsynced: string;
  haLog: string;
}

/** Home Assistant's `rest` integration says so in its User-Agent; the bridge sends none. */
export function clientOf(userAgent: string | undefined): Client {
  return userAgent?.startsWith("HomeAssistant") ? "rest" : "bridge";
}

/** The token as the API counts it, both clients together, over the window. */
export function measureToken(o: SideObservation): { perMinuteMax: number; rateLimited: number } {
  const inWindow = o.requests.filter((r) => r.at >= o.window.start && r.at < o.window.end);
  return {
    perMinuteMax: busiestMinute(inWindow.map((r) => r.at)),
    rateLimited: inWindow.filter((r) => r.status === 429).length,
  };
}

export function measureClient(o: SideObservation, client: Client): ClientMetrics {
  const { start, end, drainEnd } = o.window;
  const mine = o.requests.filter((r) => clientOf(r.userAgent) === client && r.at >= start && r.at < end);
  const minutes = (end - start) / 60_000;
  const slug = (id: string) => o.household.slugs[id] ?? id;
  const lea = slug(o.household.ordinary);
  const entities =
    client === "bridge"
      ? { points: `sensor.reward_facts_${lea}_points`, lastEvent: undefined }
      : { points: restEntities(lea).points, lastEvent: restEntities(lea).lastEvent };

  const windowFacts = new Set(
    o.journal.filter((f) => f.recordedAt >= start && f.recordedAt < end).map((f) => f.id),
  );
  const olderFacts = new Set(o.journal.filter((f) => f.recordedAt < start).map((f) => f.id));
  // Facts recorded during the drain belong to no one's count.
  const laterFacts = new Set(o.journal.filter((f) => f.recordedAt >= end).map((f) => f.id));
  const lines = o.logged[client].filter(
    (l) => l.at >= start && l.at <= drainEnd && !laterFacts.has(l.message),
  );
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line.message, (counts.get(line.message) ?? 0) + 1);
  const reachedIds = [...counts.keys()].filter((m) => windowFacts.has(m));

  return {
    perMinuteMean: mine.length / minutes,
    perMinuteMax: busiestMinute(mine.map((r) => r.at)),
    rateLimited: mine.filter((r) => r.status === 429).length,
    facts: windowFacts.size,
    reached: reachedIds.length,
    repeats: reachedIds.reduce((sum, id) => sum + (counts.get(id) ?? 1) - 1, 0),
    olderFacts: lines.filter((l) => olderFacts.has(l.message)).length,
    notFacts: lines.filter((l) => !windowFacts.has(l.message) && !olderFacts.has(l.message)).length,
    eventStaleness: eventStaleness(o, client, entities.lastEvent),
    todayStaleness: todayStaleness(o, entities.points),
    todayGlitches: todayGlitches(o, client),
    calmDay: shown(o, client, o.household.calm),
    unsynced: shown(o, client, o.household.unsynced),
    haLog:
      client === "bridge"
        ? `${o.haLog.bridgeLines} warnings or errors`
        : `${o.haLog.restTemplateWarnings} template warnings, ${o.haLog.restSensorErrors} sensor errors` +
          (o.haLog.restNotAdded.length > 0 ? `, ${o.haLog.restNotAdded.length} sensors never created` : ""),
  };
}

/**
 * For each fact the bench produced: from its recorded_at until Home Assistant shows it. The
 * bridge shows a fact with its own reward_facts_event; the rest sensor shows the newest event of
 * its page, so a fact counts as shown once the sensor holds it or a later produced fact.
 */
function eventStaleness(o: SideObservation, client: Client, lastEvent: string | undefined) {
  const delays: number[] = [];
  let missing = 0;
  o.produced.forEach((fact, i) => {
    let shownAt: number | undefined;
    if (client === "bridge") {
      shownAt = o.fired.find((f) => f.id === fact.id)?.at;
    } else {
      const laterIds = new Set(o.produced.slice(i).map((f) => f.id));
      shownAt = o.stateChanges.find(
        (c) =>
          c.entityId === lastEvent && c.at >= fact.recordedAt && c.state !== null && laterIds.has(c.state),
      )?.at;
    }
    if (shownAt === undefined) missing++;
    else delays.push(shownAt - fact.recordedAt);
  });
  return { ...summarize(delays), missing };
}

/** For each produced fact: until the points sensor shows at least the points the fact brought. */
function todayStaleness(o: SideObservation, pointsEntity: string) {
  const delays: number[] = [];
  let missing = 0;
  for (const fact of o.produced) {
    const change = o.stateChanges.find(
      (c) => c.entityId === pointsEntity && c.at >= fact.recordedAt && Number(c.state) >= fact.points,
    );
    if (change === undefined) missing++;
    else delays.push(change.at - fact.recordedAt);
  }
  return { ...summarize(delays), missing };
}

function todayGlitches(o: SideObservation, client: Client): number {
  const readable = o.followed.filter((id) => id !== o.household.calm && id !== o.household.unsynced);
  const watched = new Set(
    readable.flatMap((id) => {
      const slug = o.household.slugs[id] ?? id;
      return client === "bridge"
        ? [`sensor.reward_facts_${slug}_minutes_remaining`, `sensor.reward_facts_${slug}_points`]
        : [restEntities(slug).minutesRemaining, restEntities(slug).points];
    }),
  );
  return o.stateChanges.filter(
    (c) =>
      watched.has(c.entityId) &&
      c.at >= o.window.start &&
      c.state !== null &&
      !Number.isFinite(Number.parseFloat(c.state)),
  ).length;
}

/** What a child's entities show at the end, in a few words. */
function shown(o: SideObservation, client: Client, childId: string): string {
  const slug = o.household.slugs[childId] ?? childId;
  const state = (id: string) => {
    const value = o.snapshot[id]?.state;
    return value === undefined ? "no entity" : value === "" ? '""' : value;
  };
  if (client === "bridge") {
    const reason = o.snapshot[`sensor.reward_facts_${slug}_minutes_remaining`]?.attributes.reason;
    return (
      `minutes remaining ${state(`sensor.reward_facts_${slug}_minutes_remaining`)}` +
      (typeof reason === "string" ? ` (reason: ${reason})` : "") +
      `, my day ${state(`binary_sensor.reward_facts_${slug}_my_day`)}`
    );
  }
  const rest = restEntities(slug);
  return (
    `minutes remaining: ${state(rest.minutesRemaining)}, points ${state(rest.points)}, ` +
    `last event ${state(rest.lastEvent)}`
  );
}
