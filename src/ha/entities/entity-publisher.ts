import type { EngineStatus, UnavailableReason } from "../../engine/sink.js";
import type { Logger } from "../../log/logger.js";
import type { HomeAssistantLink } from "../link/connection.js";
import type { StateWriter } from "../link/state-writer.js";
import type { Texts } from "../texts/texts.js";
import type { ChildEntityKind } from "./catalogue.js";
import type { ChildIdentity, EntityState, LastFigures } from "./entities.js";
import type { ChildButton, EntityNames } from "./entity-names.js";

/** What a way of publishing entities can use of the Home Assistant link. */
export interface HomeAssistantParts {
  connection: HomeAssistantLink;
  states: StateWriter;
  logger: Logger;
  /** The ids entities and the event are given: the contract's, or the demo's. */
  names: EntityNames;
  /** The texts in the household's language (Home Assistant's), as they are now. */
  texts: () => Texts;
  /** What could not be published while the broker refused the bridge can be now (MQTT). */
  onRefusalEnded?: () => void;
  /** A child's button was pressed in Home Assistant (MQTT: her Read now and test fact buttons). */
  onPress?: (child: ChildIdentity, button: ChildButton) => void;
}

export type EntityPublisherFactory = (parts: HomeAssistantParts) => EntityPublisher;

/**
 * How the bridge's entities reach Home Assistant: states written through its REST API
 * (rest/rest-entities.ts), or registry entities through MQTT discovery (mqtt/mqtt-entities.ts).
 * The bus event, the delivery records and the token notification are the same for both (HomeAssistantSink).
 */
export interface EntityPublisher {
  /** `rest` or `mqtt`, for logs and the status. */
  readonly mode: "rest" | "mqtt";
  /** Connects what it needs (the broker); rejects when refused, or when `signal` aborts first. */
  open(signal?: AbortSignal): Promise<void>;
  /** Says the bridge stops and disconnects. */
  close(): Promise<void>;
  /** Removes every entity it published from Home Assistant (the demo, when it stops). */
  remove(): Promise<void>;
  /** Whether states can be published now. */
  readonly ready: boolean;
  /** Why nothing can be published this way until the configuration changes (the broker refused). */
  readonly refusal: string | undefined;
  whenReady(signal: AbortSignal): Promise<void>;
  /** Home Assistant (re)started or came back: everything it must know, again. */
  republish(): Promise<void>;
  /** The children followed now; a child no longer among them is removed where that means something. */
  setChildren(children: readonly ChildIdentity[]): Promise<void>;
  publishChild(child: ChildIdentity, states: readonly EntityState[]): Promise<void>;
  /** `last`: what her last reading said, for answers that must give the last figure. */
  markUnavailable(
    child: ChildIdentity,
    reason: UnavailableReason,
    lastReadAt: number | undefined,
    last?: LastFigures,
  ): Promise<void>;
  /** `diagnostics`: the bridge's redacted state, for Home Assistant's diagnostics download where there is one (MQTT). */
  publishStatus(
    status: EntityState,
    engine: EngineStatus,
    diagnostics: Record<string, unknown>,
  ): Promise<void>;
  /**
   * Steps of the delivery script that run, in Home Assistant, before the bus event, in the same
   * run (the MQTT event entity and device trigger), for an arrival marked `redelivered` or not.
   * FactsMustWaitError when they could not reach their entities now.
   */
  deliverySteps(child: ChildIdentity, data: Record<string, unknown>, redelivered: boolean): unknown[];
  /** The unique id of a child's entity in Home Assistant's registry; none for states it writes. */
  uniqueIdOf(childId: string, kind: ChildEntityKind): string | undefined;
}

/** No fact may be delivered now (Home Assistant's MQTT client is away): it waits, nothing is lost. */
export class FactsMustWaitError extends Error {
  override name = "FactsMustWaitError";
}
