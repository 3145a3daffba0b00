import type { ChildRef } from "../engine/sink.js";
import type { RecentDeliveryHistory } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import { DashboardKeeper } from "./dashboard/dashboard-keeper.js";
import { DeliveryPart } from "./delivery/delivery-part.js";
import { type DeliveryLease, EventDeliverer } from "./delivery/event-deliverer.js";
import type { ChildIdentity } from "./entities/entities.js";
import { contractNames, type EntityNames } from "./entities/entity-names.js";
import type { EntityPublisher, EntityPublisherFactory } from "./entities/entity-publisher.js";
import { RestEntities } from "./entities/rest/rest-entities.js";
import { SettledSlugs, type SlugMemory } from "./entities/settled-slugs.js";
import { callService } from "./link/commands.js";
import { ConfigApi } from "./link/config-api.js";
import type { HomeAssistantLink } from "./link/connection.js";
import type { ServiceCaller } from "./link/notifications.js";
import { StateWriter } from "./link/state-writer.js";
import type { AssistMemory } from "./parts/assist.js";
import { AssistExposure } from "./parts/assist.js";
import { AssistAnswers } from "./parts/assist-answers.js";
import { BridgeBlueprints } from "./parts/bridge-blueprints.js";
import { BridgeDiagnostics } from "./parts/bridge-diagnostics.js";
import { BridgeNotices } from "./parts/bridge-notices.js";
import { ChildButtons } from "./parts/child-buttons.js";
import { type DiaryMemory, FactDiary } from "./parts/fact-diary.js";
import { HouseholdLabels } from "./parts/household-labels.js";
import { ScreenTimeWeek, type WeekMemory } from "./parts/screen-time-week.js";
import type { SinkPart } from "./parts/sink-part.js";
import { HouseholdLanguage } from "./texts/household-language.js";
import type { Texts } from "./texts/texts.js";

// The sink's wiring, apart from its conducting (ha-sink.ts): what it is given, and the pieces made
// of it once, at construction.

/** What the sink is given: the link, where its memories are kept, and the options it follows. */
export interface HomeAssistantSinkOptions {
  /** The run's one link to Home Assistant (home-assistant-link.ts): the sink listens to it. */
  link: HomeAssistantLink;
  /** Where states are written through REST (the link's address and token). */
  url: string;
  token: string;
  logger: Logger;
  /** How entities are published; REST-made states when not given. */
  entities?: EntityPublisherFactory;
  /** The ids of the entities, the event and the records: the contract's unless given (the demo's). */
  names?: EntityNames;
  /** At close, remove every entity and record published (the demo's simulated children). */
  removeOnStop?: boolean;
  /** Make and keep the Rewards dashboard (the `dashboard` option). */
  dashboard?: boolean;
  /** Where the facts sent lately are kept across restarts of the bridge; in memory without. */
  recentDeliveries?: RecentDeliveryHistory | undefined;
  /** How long an answered fact may be owed after a drop (REDELIVERY_WINDOW_MS unless a test shortens it). */
  redeliveryWindowMs?: number | undefined;
  /** The household lease every delivery checks (none for the demo), and who hears of a refusal. */
  lease?: DeliveryLease | undefined;
  /** Where the children's settled slugs are kept across restarts (settled-slugs.ts). */
  slugMemory?: SlugMemory | undefined;
  /** Offer the children's entities to Assist, with aliases (assist.ts); on unless told. */
  assist?: boolean;
  /** Where what was offered to Assist is kept across restarts. */
  assistMemory?: AssistMemory | undefined;
  /** Where the children's latest facts are kept across restarts (fact-diary.ts). */
  diaryMemory?: DiaryMemory | undefined;
  /** Where the children's own readings of their screen time per day are kept (screen-time-week.ts). */
  weekMemory?: WeekMemory | undefined;
  /** How often each child's day is read (`today_interval_seconds`): Assist says a figure is stale past three. */
  todayIntervalSeconds?: number | undefined;
  /** A child's Read now button was pressed (MQTT mode): the engine reads her next (the app wires it). */
  readNow?: ((childId: string) => void) | undefined;
  /**
   * Ends the opening when it aborts (a stop during start-up): the first connection to Home
   * Assistant, and to the broker, are not waited for any longer.
   */
  signal?: AbortSignal | undefined;
}

/** While an entity's value does not change, its `last_read` is rewritten this often (StateWriter). */
export const LAST_READ_REFRESH_MS = 10 * 60_000;

/** The sink's pieces, made of its options. */
export interface SinkPieces {
  link: HomeAssistantLink;
  logger: Logger;
  names: EntityNames;
  /** Home Assistant's language, which the bridge's texts follow. */
  language: HouseholdLanguage;
  /** The children's settled slugs: a child's identity in entity ids. */
  slugs: SettledSlugs;
  identity: (child: ChildRef) => ChildIdentity;
  /** REST: the states the publisher does not make (the refused status, a REST-made state). */
  states: StateWriter;
  /** Home Assistant's configuration API (the automation and the script of assist-answers.ts). */
  config: ConfigApi;
  entities: EntityPublisher;
  events: EventDeliverer;
  /** The bridge's redacted state for the diagnostics download (bridge-diagnostics.ts). */
  diagnostics: BridgeDiagnostics;
  /** In the order each hook takes its turn (parts/sink-parts.ts). */
  parts: readonly SinkPart[];
}

/** Makes the sink's pieces; `onRefusalEnded` is the sink's, called when the broker takes it again. */
export function wireSink(options: HomeAssistantSinkOptions, onRefusalEnded: () => void): SinkPieces {
  const { link, logger } = options;
  const names = options.names ?? contractNames;
  const language = new HouseholdLanguage(logger);
  const texts = () => language.texts;
  const slugs = new SettledSlugs(options.slugMemory, logger);
  const identity = (child: ChildRef) => ({
    id: child.id,
    firstName: child.firstName,
    slug: slugs.slugOf(child),
  });
  const states = new StateWriter({
    url: options.url,
    token: options.token,
    logger,
    refresh: { attribute: "last_read", everyMs: LAST_READ_REFRESH_MS },
  });
  const buttons = new ChildButtons({ link, names, logger, readNow: options.readNow });
  const entities = (options.entities ?? ((ha) => new RestEntities(ha)))({
    connection: link,
    states,
    logger,
    names,
    texts,
    onRefusalEnded,
    onPress: (child, button) => buttons.pressed(child, button),
  });
  const events = new EventDeliverer({
    connection: link,
    entities,
    names,
    logger,
    identityOf: identity,
    recentDeliveries: options.recentDeliveries,
    redeliveryWindowMs: options.redeliveryWindowMs,
    lease: options.lease,
    texts,
  });
  const diagnostics = new BridgeDiagnostics();
  const config = new ConfigApi({ url: options.url, token: options.token });
  const parts = sinkParts({
    link,
    logger,
    names,
    events,
    entities,
    diagnostics,
    // Through the link: the notices are told only while it is up (bridge-notices.ts).
    call: (domain, service, data) => callService(link, domain, service, data),
    texts,
    language: () => language.code,
    moment: (at) => language.moment(at, link.timeZone),
    dashboard: options.dashboard ?? false,
    blueprints: !(options.removeOnStop ?? false),
    assist: options.assist ?? true,
    assistMemory: options.assistMemory,
    states,
    diaryMemory: options.diaryMemory,
    weekMemory: options.weekMemory,
    config,
    todayIntervalSeconds: options.todayIntervalSeconds ?? 60,
  });
  return {
    link,
    logger,
    names,
    language,
    slugs,
    identity,
    states,
    config,
    entities,
    events,
    diagnostics,
    parts,
  };
}

/** What the parts are made of: the sink's own pieces, and the options that choose among them. */
interface SinkPartsMaterials {
  link: HomeAssistantLink;
  logger: Logger;
  names: EntityNames;
  events: EventDeliverer;
  entities: EntityPublisher;
  diagnostics: BridgeDiagnostics;
  /** Calls a service (the notifications go this way). */
  call: ServiceCaller;
  /** The household's language, as it is now, and how it writes a moment. */
  texts: () => Texts;
  /** Its code (`en`, `fr`). */
  language: () => string;
  moment: (at: number) => string;
  dashboard: boolean;
  /** Offer the bridge's blueprints in Home Assistant (not the demo). */
  blueprints: boolean;
  assist: boolean;
  assistMemory: AssistMemory | undefined;
  /** Where the bridge's own states are written through REST (the diaries). */
  states: StateWriter;
  diaryMemory: DiaryMemory | undefined;
  weekMemory: WeekMemory | undefined;
  /** Home Assistant's configuration API: the automation and the script the bridge keeps. */
  config: ConfigApi;
  todayIntervalSeconds: number;
}

/**
 * The sink's parts, in the order each hook takes its turn: the delivery records first (at a
 * connection they are checked before anything else), the diagnostics last (they only listen).
 */
function sinkParts(m: SinkPartsMaterials): SinkPart[] {
  const ready = () => m.link.ready;
  const { link, logger, names, texts } = m;
  return [
    new DeliveryPart(m.events, logger, ready),
    new BridgeNotices(m.call, logger, { texts, moment: m.moment }),
    ...(m.dashboard
      ? [
          new DashboardKeeper({
            link,
            ready,
            logger,
            names,
            texts,
            mode: () => m.entities.mode,
            haVersion: () => link.haVersion,
          }),
        ]
      : []),
    new HouseholdLabels({ link, ready, logger, names, texts, mode: () => m.entities.mode }),
    // Not for the demo, which leaves nothing behind.
    ...(m.blueprints
      ? [new BridgeBlueprints({ link, ready, logger, language: m.language, haVersion: () => link.haVersion })]
      : []),
    new AssistExposure({
      link,
      ready,
      texts,
      names,
      logger,
      memory: m.assistMemory,
      enabled: m.assist,
      registryEntities: () => m.entities.mode === "mqtt",
    }),
    // Not for the demo, which leaves nothing behind.
    ...(m.blueprints
      ? [
          new AssistAnswers({
            link,
            config: m.config,
            ready,
            texts,
            names,
            logger,
            enabled: m.assist,
            mode: () => m.entities.mode,
            todayIntervalSeconds: m.todayIntervalSeconds,
          }),
        ]
      : []),
    new FactDiary({ states: m.states, names, texts, logger, memory: m.diaryMemory, ready }),
    new ScreenTimeWeek({ link, states: m.states, names, texts, logger, memory: m.weekMemory, ready }),
    m.diagnostics,
  ];
}
