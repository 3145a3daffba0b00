import type { Today } from "../../api/schemas.js";
import type { Logger } from "../../log/logger.js";
import { addDays, localDayStartMs } from "../../time/zoned.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { HomeAssistantLink } from "../link/connection.js";
import type { StateWriter, WrittenState } from "../link/state-writer.js";
import { dailyChange } from "../link/statistics.js";
import type { Texts } from "../texts/texts.js";
import { OrderedWrites } from "./ordered-writes.js";
import type { SinkPart } from "./sink-part.js";
import { type MinutesByDate, WEEK_LENGTH, weekOf, withReading } from "./week-days.js";

// Each child's screen time per day for the dashboard's week, readable from the first day
// (`sensor.reward_facts_<child>_screen_time_days`): `chart` once Home Assistant's statistics hold
// days enough for its chart, `filling` until then, and the days so far as an attribute, each
// from the statistics where they have it, else from the bridge's own readings of her day. The
// dashboard shows the chart, or the days in words while it fills. The readings are kept in the
// data folder; the statistics are asked for at most once an hour a child.

/** How long the statistics asked for stand: the recorder compiles them once an hour. */
export const STATISTICS_FRESH_MS = 60 * 60_000;

/** Where the readings are kept across restarts of the bridge (bridge-memories.ts). */
export interface WeekMemory {
  load(): Promise<Readonly<Record<string, MinutesByDate>> | undefined>;
  save(readings: Readonly<Record<string, MinutesByDate>>): Promise<void>;
}

export interface ScreenTimeWeekOptions {
  link: HomeAssistantLink;
  states: StateWriter;
  names: EntityNames;
  texts: () => Texts;
  logger: Logger;
  memory: WeekMemory | undefined;
  ready: () => boolean;
}

export class ScreenTimeWeek implements SinkPart {
  readonly name = "screen time week";
  readonly #o: ScreenTimeWeekOptions;
  readonly #writes: OrderedWrites;
  #children = new Map<string, ChildIdentity>();
  /** Each child's readings: the day's minutes used, by household date. */
  #readings = new Map<string, MinutesByDate>();
  /** Each child's household date at her last reading. */
  #today = new Map<string, string>();
  /** What the statistics said, and when they were asked. */
  #statistics = new Map<string, { askedAt: number; byDate: MinutesByDate }>();
  #loaded: Promise<void> | undefined;

  constructor(options: ScreenTimeWeekOptions) {
    this.#o = options;
    this.#writes = new OrderedWrites(options.logger, "the screen time per day");
  }

  async children(children: readonly ChildIdentity[]): Promise<void> {
    await this.#load();
    const gone = [...this.#children.values()].filter((child) => !children.some((c) => c.id === child.id));
    this.#children = new Map(children.map((child) => [child.id, child]));
    for (const child of gone) this.#writes.add(() => this.#o.states.removeState(this.#entityId(child)));
  }

  async childRead(child: ChildIdentity, today: Today): Promise<void> {
    await this.#load();
    this.#children.set(child.id, child);
    this.#today.set(child.id, today.date);
    // The other home's day counts 0 here, as her minutes_consumed says (and its statistics).
    const minutes = today.isMyDay ? today.minutesConsumed : 0;
    const before = this.#readings.get(child.id) ?? {};
    const after = withReading(before, today.date, minutes);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      this.#readings.set(child.id, after);
      this.#writes.add(async () => this.#o.memory?.save(Object.fromEntries(this.#readings)));
    }
    if (!this.#o.ready()) return;
    this.#writes.add(async () => {
      await this.#askStatistics(child, today.date);
      await this.#o.states.write([this.#state(child, today.date)]);
    });
  }

  /** Home Assistant is back: its statistics asked again, every week written again (REST-made states). */
  async running(): Promise<void> {
    this.#statistics.clear();
    this.#writes.add(async () => {
      const states: WrittenState[] = [];
      for (const child of this.#children.values()) {
        const today = this.#today.get(child.id);
        if (!today) continue;
        await this.#askStatistics(child, today);
        states.push(this.#state(child, today));
      }
      await this.#o.states.write(states, { again: true });
    });
    await this.#writes.settled();
  }

  async language(): Promise<void> {
    if (!this.#o.ready()) return;
    this.#writes.add(() => this.#o.states.write(this.#statesNow()));
    await this.#writes.settled();
  }

  async remove(): Promise<void> {
    await this.#writes.settled();
    for (const child of this.#children.values()) await this.#o.states.removeState(this.#entityId(child));
  }

  #statesNow(): WrittenState[] {
    return [...this.#children.values()].flatMap((child) => {
      const today = this.#today.get(child.id);
      return today ? [this.#state(child, today)] : [];
    });
  }

  async #askStatistics(child: ChildIdentity, today: string): Promise<void> {
    const timeZone = this.#o.link.timeZone;
    const asked = this.#statistics.get(child.id);
    if (!timeZone || (asked && Date.now() - asked.askedAt < STATISTICS_FRESH_MS)) return;
    const from = localDayStartMs(addDays(today, -(WEEK_LENGTH - 1)), timeZone);
    const statisticId = this.#o.names.child(child.slug, "minutes_consumed");
    // Asked once an hour even when the recorder cannot answer (none in this Home Assistant).
    const byDate = await dailyChange(this.#o.link, statisticId, from, timeZone).catch((error: unknown) => {
      this.#o.logger.debug({ err: (error as Error).message }, "the recorder's statistics could not be read");
      return {};
    });
    this.#statistics.set(child.id, { askedAt: Date.now(), byDate });
  }

  #state(child: ChildIdentity, today: string): WrittenState {
    const week = weekOf(
      today,
      this.#statistics.get(child.id)?.byDate ?? {},
      this.#readings.get(child.id) ?? {},
    );
    return {
      entityId: this.#entityId(child),
      state: week.state,
      attributes: {
        days: week.days,
        child_id: child.id,
        child_name: child.firstName,
        friendly_name: `${child.firstName} ${this.#o.texts().dashboard.week}`,
        icon: "mdi:chart-bar",
      },
    };
  }

  #entityId(child: ChildIdentity): string {
    return this.#o.names.childExtra(child.slug, "screen_time_days");
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const kept = await this.#o.memory?.load();
      for (const [childId, readings] of Object.entries(kept ?? {})) this.#readings.set(childId, readings);
    })();
    return this.#loaded;
  }
}
