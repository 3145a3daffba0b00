// The API simulator, as the demo and the tests see it, and all they may import of this folder.
//
// Shown: ApiSimulator and the types its methods take and give (facts, faults, households, served
// requests, its options), the clocks it runs on, and the household's local time the demo's clock
// shows. Withheld: the HTTP server and its routing, the rules and ledgers that make the household
// behave, the fact writer's schedule: a consumer drives the household through ApiSimulator.
import type { ApiEvent, Child, Today } from "../api/schemas.js";
import type { SimClock } from "./clock.js";
import { type FactTiming, FactWriter } from "./fact-writer.js";
import type { FactFields } from "./facts.js";
import { type Fault, type FaultMatch, FaultQueue } from "./faults.js";
import { type DemoChildren, Households, isOwnDay, type NewChild } from "./household.js";
import { Journal } from "./journal.js";
import { resolveOptions, type SimulatorOptions } from "./options.js";
import { RateLimiter } from "./rate-limiter.js";
import type { ServedRequest } from "./request-log.js";
import { normalizeBasePath } from "./routing.js";
import type { BehaviorRule, MenuItem } from "./rules.js";
import { HOST, SimServer } from "./server.js";
import type { ServiceContext } from "./service.js";
import { computeToday } from "./today.js";
import { addDays, localDateOf, localDayStartMs } from "./zoned-time.js";

export type { TokenLabel } from "./auth.js";
export type { ScaledClockOptions, SimClock } from "./clock.js";
export { ManualClock, realClock, ScaledClock } from "./clock.js";
export type { FactTiming } from "./fact-writer.js";
export type { Cheer, FactFields, FactType } from "./facts.js";
export type { Fault, FaultKind, FaultMatch } from "./faults.js";
export type { Custody, DemoChildren, HouseholdKey, NewChild } from "./household.js";
export { OMITTED_SINCE_WINDOW_MS } from "./journal.js";
export type { ActivityOptions, SimulatorOptions } from "./options.js";
export type { ServedRequest } from "./request-log.js";
export type { BehaviorRule, MenuItem } from "./rules.js";
// The household's local time, which the demo's clock shows as the simulator reckons it.
export { localDateOf, offsetMsAt } from "./zoned-time.js";

const MAX_LOGGED_REQUESTS = 200_000;

/** The two household tokens. They are demo tokens of a simulator: printing them is fine. */
export interface SimulatorTokens {
  /** The demo household (children: ordinary, custody, unsynced). */
  household: string;
  /** The other household (child: other). */
  other: string;
}

/**
 * The Household Reward Facts API v1, simulated over real HTTP on 127.0.0.1, with the hooks tests
 * need: facts, token and child states, faults, and a log of what was served.
 *
 * Where the spec says "not shown", the simulator picks one documented behaviour (options switch
 * the ones a client must cope with either way):
 * - since omitted: the facts recorded in the last 24 hours (OMITTED_SINCE_WINDOW_MS);
 * - since as a timestamp: ISO 8601 with Z or ±hh:mm; one without a zone names no instant (400);
 * - cursor: `recorded_at,id`, the instant written with the household's offset (`+01:00`);
 * - empty page: cursor null, or the since echoed back (`emptyPageCursor: "echo"`);
 * - rate: a sliding 60 s window per token (or fixed minutes), counting admitted requests only,
 *   on both base paths; no Retry-After unless `retryAfterSeconds` is set;
 * - checks in order: method (405), path (404), token (401), rate (429), then 403, 409 or 400;
 * - other household's days: a bare CalmDay, and the demo writes no facts on them;
 * - unsynced rules: 409 on today only; the events of such a child are served (empty in the demo).
 */
export class ApiSimulator {
  /** Current base URL, e.g. http://127.0.0.1:34567/api/v1. */
  readonly url: string;
  /** Original base URL, same API, e.g. http://127.0.0.1:34567/v1. */
  readonly legacyUrl: string;
  readonly port: number;
  readonly seed: number;
  readonly timeZone: string;
  /** What it allows each token per minute before it answers 429. */
  readonly rateLimitPerMinute: number;
  readonly clock: SimClock;
  readonly tokens: SimulatorTokens;
  readonly children: DemoChildren;
  readonly #households: Households;
  readonly #journal: Journal;
  readonly #writer: FactWriter;
  readonly #faults: FaultQueue;
  readonly #requests: ServedRequest[];
  readonly #server: SimServer;

  private constructor(parts: {
    url: string;
    legacyUrl: string;
    service: ServiceContext;
    writer: FactWriter;
    faults: FaultQueue;
    requests: ServedRequest[];
    server: SimServer;
    seed: number;
    rateLimitPerMinute: number;
  }) {
    this.url = parts.url;
    this.legacyUrl = parts.legacyUrl;
    this.port = parts.server.port;
    this.seed = parts.seed;
    this.rateLimitPerMinute = parts.rateLimitPerMinute;
    this.timeZone = parts.service.timeZone;
    this.clock = parts.service.clock;
    this.#households = parts.service.households;
    this.#journal = parts.service.journal;
    this.#writer = parts.writer;
    this.#faults = parts.faults;
    this.#requests = parts.requests;
    this.#server = parts.server;
    this.tokens = { household: this.#households.token("household"), other: this.#households.token("other") };
    this.children = this.#households.demo;
  }

  static async start(options: SimulatorOptions = {}): Promise<ApiSimulator> {
    const o = resolveOptions(options);
    const { clock, timeZone, seed } = o;
    const bases = { current: normalizeBasePath(o.basePath), legacy: normalizeBasePath(o.legacyBasePath) };
    const households = new Households(seed);
    const activityFrom = o.activity
      ? localDayStartMs(addDays(localDateOf(clock.now(), timeZone), -o.activity.historyDays), timeZone)
      : undefined;
    const journal = new Journal({
      seed,
      timeZone,
      factsPerHour: o.activity ? o.activity.factsPerHour : 0,
      activityFrom,
    });
    const service: ServiceContext = {
      households,
      journal,
      clock,
      timeZone,
      pageSize: o.pageSize,
      emptyPageCursor: o.emptyPageCursor,
      bases,
      limiter: new RateLimiter({ clock, perMinute: o.rateLimitPerMinute, window: o.rateWindow }),
      retryAfterSeconds: o.retryAfterSeconds,
    };
    const faults = new FaultQueue();
    const requests: ServedRequest[] = [];
    const server = await SimServer.listen(
      {
        service,
        faults,
        clock,
        record: (request) => {
          // A long demo must not grow without end; tests read far fewer than this.
          if (requests.length >= MAX_LOGGED_REQUESTS) requests.splice(0, MAX_LOGGED_REQUESTS / 10);
          requests.push(request);
        },
      },
      o.port,
    );
    const origin = `http://${HOST}:${server.port}`;
    return new ApiSimulator({
      url: `${origin}${bases.current}`,
      legacyUrl: `${origin}${bases.legacy}`,
      service,
      writer: new FactWriter(journal, clock, timeZone, seed),
      faults,
      requests,
      server,
      seed,
      rateLimitPerMinute: o.rateLimitPerMinute,
    });
  }

  /** Closes the idle keep-alive connections, as the API's server does once their keep-alive runs out. */
  closeIdleConnections(): void {
    this.#server.closeIdleConnections();
  }

  /** Stops the server; open connections and slow answers are dropped. */
  async stop(): Promise<void> {
    await this.#server.close();
  }

  /** Every request served so far, oldest first. */
  get requests(): readonly ServedRequest[] {
    return this.#requests;
  }

  clearRequests(): void {
    this.#requests.length = 0;
  }

  /** The child's well-formed facts recorded by now, in the API's order (raw entries left out). */
  journal(childId: string): ApiEvent[] {
    return this.#entries(childId).flatMap((e) => (e.event ? [e.event] : []));
  }

  /** Every body the events endpoint would serve for the child by now, raw entries included. */
  rawJournal(childId: string): unknown[] {
    return this.#entries(childId).map((e) => e.body);
  }

  /** What the today endpoint computes for the child now, whatever the token and sync state. */
  today(childId: string): Today {
    return computeToday(this.#child(childId), this.clock.now(), this.#journal, this.timeZone);
  }

  /** Whether the instant (now by default) falls on a day of the child's own household. */
  isMyDay(childId: string, at: number = this.clock.now()): boolean {
    return isOwnDay(this.#child(childId), localDateOf(at, this.timeZone));
  }

  behaviors(childId: string): readonly BehaviorRule[] {
    return this.#child(childId).rules.behaviors;
  }

  menu(childId: string): readonly MenuItem[] {
    return this.#child(childId).rules.menu;
  }

  /** Records a fact; a session_started also makes today's session run until its end. */
  addEvent(childId: string, fields: FactFields, timing?: FactTiming): ApiEvent {
    return this.#writer.add(this.#child(childId), fields, timing);
  }

  /** n facts sharing one recorded_at (cheers unless `fields` says otherwise); the id orders them. */
  addEvents(childId: string, n: number, timing?: FactTiming, fields?: FactFields): ApiEvent[] {
    return this.#writer.addMany(this.#child(childId), n, timing, fields);
  }

  /** An entry served as given: an unknown type, a malformed event… (see FactWriter.addRaw). */
  addRawEvent(
    childId: string,
    raw: Record<string, unknown>,
    timing?: FactTiming,
  ): { id: string; recordedAt: number } {
    return this.#writer.addRaw(this.#child(childId), raw, timing);
  }

  revokeToken(token: string): void {
    this.#households.setRevoked(token, true);
  }

  restoreToken(token: string): void {
    this.#households.setRevoked(token, false);
  }

  unsyncRules(childId: string): void {
    this.#child(childId).rulesSynced = false;
  }

  syncRules(childId: string): void {
    this.#child(childId).rulesSynced = true;
  }

  /** A parent freezes the child's day in the app (or thaws it): no minutes may be used while frozen. */
  freezeDay(childId: string, frozen = true): void {
    this.#child(childId).frozen = frozen;
  }

  /** The child leaves its household: no longer listed, 403 on its endpoints. */
  moveChildOut(childId: string): void {
    this.#child(childId).movedOut = true;
  }

  moveChildIn(childId: string): void {
    this.#child(childId).movedOut = false;
  }

  /** A new child (of the demo household unless told), with rules and a planned activity. */
  addChild(firstName: string, options?: NewChild): Child {
    const child = this.#households.add(firstName, options);
    return { id: child.id, firstName: child.firstName };
  }

  /** The parents change the child's first name in the app: the list shows the new one, the id stays. */
  renameChild(childId: string, firstName: string): void {
    this.#child(childId).firstName = firstName;
  }

  /** The child says in the app she did a behavior (declared), from `at` (now by default). */
  declareBehavior(childId: string, behaviorId: string, at: number = this.clock.now()): void {
    this.#markBehavior(childId, behaviorId, { declaredAt: at }, at);
  }

  /** A parent rejects a declared behavior in the app, from `at` (now by default). */
  rejectBehavior(childId: string, behaviorId: string, at: number = this.clock.now()): void {
    this.#markBehavior(childId, behaviorId, { rejectedAt: at }, at);
  }

  #markBehavior(
    childId: string,
    behaviorId: string,
    change: { declaredAt?: number; rejectedAt?: number },
    at: number,
  ) {
    this.#journal.markBehavior(this.#child(childId), localDateOf(at, this.timeZone), behaviorId, change);
  }

  /** The next `count` admitted requests (matching `match`, if given) fail with the fault. */
  failNext(count: number, fault: Fault, match?: FaultMatch): void {
    this.#faults.arm(count, fault, match);
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  #entries(childId: string) {
    return this.#journal.between(this.#child(childId), Number.NEGATIVE_INFINITY, this.clock.now());
  }

  #child(childId: string) {
    return this.#households.child(childId);
  }
}
