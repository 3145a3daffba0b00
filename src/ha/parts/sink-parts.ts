import type { Logger } from "../../log/logger.js";
import { DashboardKeeper } from "../dashboard/dashboard-keeper.js";
import { DeliveryPart } from "../delivery/delivery-part.js";
import type { EventDeliverer } from "../delivery/event-deliverer.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { EntityPublisher } from "../entities/entity-publisher.js";
import type { HaConnection } from "../link/connection.js";
import type { ServiceCaller } from "../link/notifications.js";
import type { Texts } from "../texts/texts.js";
import { AssistExposure, type AssistMemory } from "./assist.js";
import type { BridgeDiagnostics } from "./bridge-diagnostics.js";
import { BridgeNotices } from "./bridge-notices.js";
import type { SinkPart } from "./sink-part.js";

/** What the parts are made of: the sink's own pieces, and the options that choose among them. */
export interface SinkPartsMaterials {
  link: HaConnection;
  logger: Logger;
  names: EntityNames;
  events: EventDeliverer;
  entities: EntityPublisher;
  diagnostics: BridgeDiagnostics;
  /** Calls a service through REST (the notifications go this way). */
  call: ServiceCaller;
  /** The household's language, as it is now, and how it writes a moment. */
  texts: () => Texts;
  moment: (at: number) => string;
  dashboard: boolean;
  assist: boolean;
  assistMemory: AssistMemory | undefined;
}

/**
 * The sink's parts, in the order each hook takes its turn: the delivery records first (at a
 * connection they are checked before anything else), the diagnostics last (they only listen).
 */
export function sinkParts(m: SinkPartsMaterials): SinkPart[] {
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
    m.diagnostics,
  ];
}
