import type { ApiEvent, Today } from "../../api/schemas.js";
import type { EngineStatus, UnavailableReason } from "../../engine/sink.js";
import type { ChildIdentity } from "../entities/entities.js";

/**
 * A part the sink conducts beside the entities and the facts (the delivery records, the
 * notifications, the dashboard, Assist, the diagnostics): one lifecycle, every hook optional. The
 * sink calls each hook on every part in turn, in the order of its list; a part keeps its own
 * failures to itself where they are not the engine's business (it logs them), and what it throws
 * reaches the sink's caller once the other parts have had their turn. A new part is a file here
 * and a line in the sink's list, not a hook in four of its methods.
 */
export interface SinkPart {
  /** For a failure's line: which part. */
  readonly name: string;
  /** A new connection to a running Home Assistant, before any state is published again. */
  connected?(): Promise<void>;
  /** The broker refuses the bridge: nothing is published the chosen way until it takes it again. */
  refused?(): Promise<void>;
  /** Every entity published again (after a connection, or once a refusal ended). */
  republished?(): Promise<void>;
  /** After a connection, every entity published again: what waited for Home Assistant. */
  running?(): Promise<void>;
  /** The link dropped (Home Assistant stopped or died, or the network failed). */
  disconnected?(): void;
  /** The children followed, told at start and whenever they change. */
  children?(children: readonly ChildIdentity[]): Promise<void>;
  /** A child's day was read and her entities published. */
  childRead?(child: ChildIdentity, today: Today, readAt: number): Promise<void> | void;
  /** A child's day cannot be read. */
  childUnavailable?(childId: string, reason: UnavailableReason): void;
  /** A fact of a child's journal reached Home Assistant (or was already there). */
  factDelivered?(childId: string, fact: ApiEvent): Promise<void> | void;
  /** The bridge's status, about to be published. */
  status?(status: EngineStatus): Promise<void> | void;
  /** The household's language changed; every entity was published again in it. */
  language?(): Promise<void>;
  /** Everything this run published goes (the demo's stop): the part's own share. */
  remove?(): Promise<void>;
}

/** The hooks that take their turn in a loop (`name` aside). */
type Hook = Exclude<keyof SinkPart, "name">;
type HookArgs<H extends Hook> = Parameters<NonNullable<SinkPart[H]>>;

/**
 * Calls one hook on every part, in order, each even when one before it failed (as the app's stop
 * takes its steps); then rejects with the first failure, if any.
 */
export async function eachPart<H extends Hook>(
  parts: readonly SinkPart[],
  hook: H,
  ...args: HookArgs<H>
): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const part of parts) {
    const call = part[hook] as ((...a: HookArgs<H>) => unknown) | undefined;
    if (!call) continue;
    try {
      await call.apply(part, args);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
