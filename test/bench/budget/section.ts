import { duration, int, num, vsBest } from "../format.js";
import { ratioText } from "../goals/goal.js";
import type { Section } from "../report/section.js";
import { budgetGoals, budgetVerdict } from "./goals.js";
import { API_LIMIT_PER_MINUTE, idealBudget } from "./ideal.js";
import type { BudgetParams, BudgetResult } from "./params.js";

export function budgetSection(params: BudgetParams, results: readonly BudgetResult[]): Section {
  const rows = [...results]
    .sort((a, b) => a.children - b.children)
    .map((r) => {
      const best = idealBudget(r.children);
      const m = r.metrics;
      return [
        String(r.children),
        vsBest(int(m.perMinuteMax), int(Math.ceil(best.perMinute))),
        vsBest(num(m.perMinuteMean), num(best.perMinute)),
        vsBest(int(m.rateLimited), "0"),
        vsBest(duration(m.todayLag.mean), duration(best.todayLagMean)),
        vsBest(duration(m.todayLag.p95), duration(best.todayLagP95)),
        ratioText(m.todayLag.p95 / best.todayLagP95),
        vsBest(duration(m.eventDelay.mean), duration(best.eventDelayMean)),
        vsBest(duration(m.eventDelay.p95), duration(best.eventDelayP95)),
        ratioText(m.eventDelay.p95 / best.eventDelayP95),
        vsBest(duration(m.todayAge.mean), duration(best.todayAgeMean)),
        vsBest(duration(m.todayAge.p95), duration(best.todayAgeP95)),
        `${m.facts}${m.undelivered > 0 ? ` (${m.undelivered} late)` : ""}`,
        `×${num(r.stretch, 2)} / ×${num(r.todayStretch, 2)}`,
      ];
    });
  return {
    id: "budget",
    title: "Request budget (virtual time)",
    setup:
      `The engine against the simulator over loopback, ${params.hours} simulated hours per row from local ` +
      `midnight of a school day, one household token (the API allows ${API_LIMIT_PER_MINUTE} requests a ` +
      `minute), default intervals (events 30 s, today 60 s, ±10 % jitter). Activity: each child's ordinary ` +
      `day plus ${params.factsPerHour} cheers an hour. Each cell: measured (best the budget allows).`,
    tables: [
      {
        columns: [
          "children",
          "req/min max",
          "req/min mean",
          "429s",
          "today fact age mean",
          "today fact age p95",
          "÷ best",
          "event delay mean",
          "event delay p95",
          "÷ best",
          "today reading age mean",
          "today reading age p95",
          "facts",
          "stretch: journal / today",
        ],
        rows,
        numeric: true,
        footnote: budgetVerdict(results),
      },
    ],
    goals: budgetGoals(results),
    goalsLabel: "Fresh at saturation",
    notes: [
      "Children: 1 = Léa; 3 = Léa, Noah (shared custody: a CalmDay every other day, no facts then) and " +
        "Inès (no rules synced: today answers 409, no facts); more = those three plus ordinary children.",
      "req/min max: the most requests the simulator saw in any sliding 60 s window (how the simulator " +
        "enforces the limit); mean: all requests of the span / its minutes. Best: 3 a minute per child, " +
        "at most 30. The bridge keeps 2 of the 30 in reserve (28 a minute) and also lists the children " +
        "every 15 min.",
      "today fact age: for each journal fact, the time from its recorded_at to the first publication of " +
        "its child's today state read at or after that instant, i.e. how old the fact is when the today " +
        "sensors first include it. Best: the earlier of the next today read and the next events poll " +
        "(after which today is read at once), both at random phases: mean a/2 − a²/6b, for intervals a ≤ b.",
      "event delay: from a fact's recorded_at to the moment the bridge hands it to Home Assistant as a " +
        "reward_facts_event (here the recording sink). Best: the wait for the next events poll, uniform " +
        "over the interval (mean T/2, p95 0.95·T).",
      "÷ best: the measured p95 divided by the best one, from the unrounded figures.",
      "today reading age: how old the published today reading is, averaged over time (between two " +
        "publications g apart the age runs from 0 to g); it shows the today cadence itself. Best: T/2, 0.95·T.",
      "Best intervals: events 30 s and today 60 s while 3 requests a minute per child fit in 30, both " +
        "stretched alike beyond (×1.2 at 12 children, ×2 at 20, ×3 at 30). stretch: the bridge's own factors " +
        "(it budgets 28 a minute, its polls on cadence 95 % of it): today's routine read gives way first, up " +
        "to ×1.5, as a new fact brings its child's today forward anyway; then both, today staying ×1.5 " +
        "behind. So its today reading age is longer than the best's at saturation, by design. " +
        "late: facts of the span not yet delivered 10 min after it.",
      "Facts are visible in the simulator the moment they are recorded; the real API adds its own 30–60 s " +
        "before any client can see them, to the measured and the best figures alike.",
    ],
  };
}
