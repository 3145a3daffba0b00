import type { Today } from "../../api/schemas.js";
import type { Logger } from "../../log/logger.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { CommandLink } from "../link/command-link.js";
import type { SinkPart } from "../parts/sink-part.js";
import type { Texts } from "../texts/texts.js";
import { buildDashboard, dashboardPlace } from "./build-dashboard.js";
import type { DashboardChild } from "./child-cards.js";
import { type DashboardOutcome, removeDashboard, writeDashboard } from "./dashboard-writer.js";
import { gaugeTopOf } from "./gauge-top.js";

export interface DashboardKeeperOptions {
  link: CommandLink;
  /** Whether the link is up now: nothing is written while it is not. */
  ready: () => boolean;
  logger: Logger;
  names: EntityNames;
  /** The household's language, as it is now. */
  texts: () => Texts;
  /** How the entities are published now (MQTT has the journal's logbook). */
  mode: () => "rest" | "mqtt";
  /** Home Assistant's version, which decides the layout (layout.ts); unknown before it connects. */
  haVersion: () => string | undefined;
}

/**
 * The bridge's side of the dashboard option: the dashboard written when the children are known and
 * again when they change, when a child's gauge's top does (her unlocked minutes) or Home Assistant
 * comes back, each outcome logged once; a failure is logged, never thrown at the bridge (a
 * dashboard is not worth a fact).
 */
export class DashboardKeeper implements SinkPart {
  readonly name = "dashboard";
  readonly #o: DashboardKeeperOptions;
  /** The children followed, once told: a dashboard made before would show none. */
  #children: readonly DashboardChild[] | undefined;
  #lastOutcome: DashboardOutcome | undefined;
  /** Each child's gauge top (by slug), as her latest day gave it; none until a day gives one. */
  readonly #gaugeTops = new Map<string, number>();

  constructor(options: DashboardKeeperOptions) {
    this.#o = options;
  }

  /** Home Assistant may have been restored from a backup, or the dashboard deleted meanwhile. */
  async running(): Promise<void> {
    await this.#keepForChildren();
  }

  async children(children: readonly DashboardChild[]): Promise<void> {
    this.#children = children;
    if (this.#o.ready()) await this.#keepForChildren();
  }

  /** Her gauge's top follows her unlocked minutes: the dashboard is written again when it moves. */
  async childRead(child: DashboardChild, today: Today): Promise<void> {
    if (this.noteToday(child.slug, today) && this.#o.ready()) await this.#keepForChildren();
  }

  /** Written again in the household's new language. */
  async language(): Promise<void> {
    await this.#keepForChildren();
  }

  /** The demo's stop: its dashboard goes, unless someone changed it. */
  async remove(): Promise<void> {
    await this.#remove().catch((error: unknown) => {
      this.#o.logger.warn({ err: error }, "the dashboard could not be removed from Home Assistant");
    });
  }

  async #keepForChildren(): Promise<void> {
    if (this.#children) await this.keep(this.#children);
  }

  /**
   * Notes a child's latest day; true when her gauge's top changed with it, and the dashboard
   * written so far is out of date (the caller has it written again).
   */
  noteToday(slug: string, today: Today): boolean {
    const top = gaugeTopOf(today);
    if (top === undefined || this.#gaugeTops.get(slug) === top) return false;
    this.#gaugeTops.set(slug, top);
    return true;
  }

  async keep(children: readonly DashboardChild[]): Promise<void> {
    const { link, logger, names } = this.#o;
    const texts = this.#o.texts();
    const place = dashboardPlace(names, texts);
    const config = buildDashboard({
      names,
      texts,
      children: children.map((child) => ({ ...child, gaugeMax: this.#gaugeTops.get(child.slug) })),
      mode: this.#o.mode(),
      haVersion: this.#o.haVersion(),
    });
    let outcome: DashboardOutcome;
    try {
      outcome = await writeDashboard(link, place, config);
    } catch (error) {
      logger.warn({ err: error }, `the ${place.title} dashboard could not be written to Home Assistant`);
      return;
    }
    const again = outcome === this.#lastOutcome;
    this.#lastOutcome = outcome;
    const where = { dashboard: `/${place.urlPath}` };
    if (outcome === "changed_by_user") {
      if (!again)
        logger.warn(
          where,
          `the ${place.title} dashboard was changed in Home Assistant: the bridge leaves it as it is ` +
            "(delete it in Settings → Dashboards to have the bridge make it again)",
        );
    } else if (outcome === "unchanged") {
      logger.debug(where, `the ${place.title} dashboard is up to date`);
    } else {
      logger.info({ ...where, children: children.length }, `${outcome} the ${place.title} dashboard`);
    }
  }

  /** Deletes the dashboard unless someone changed it. */
  async #remove(): Promise<void> {
    const place = dashboardPlace(this.#o.names, this.#o.texts());
    if (!(await removeDashboard(this.#o.link, place)))
      this.#o.logger.warn(
        { dashboard: `/${place.urlPath}` },
        `the ${place.title} dashboard was changed in Home Assistant: left as it is`,
      );
  }
}
