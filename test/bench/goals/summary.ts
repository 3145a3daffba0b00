import type { Section } from "../report/section.js";
import { type Goal, ratioText, verdictText } from "./goal.js";

/**
 * Every goal the sections of this run measured, in one table: the first thing the report shows,
 * so that a goal not met cannot hide in a section's detail.
 */
export function goalsSection(sections: readonly Section[]): Section | undefined {
  const goals = sections.flatMap((section) =>
    (section.goals ?? []).map((goal) => ({ section: section.goalsLabel ?? section.title, goal })),
  );
  if (goals.length === 0) return undefined;
  const met = goals.filter((g) => g.goal.met).length;
  const row = ({ section, goal }: { section: string; goal: Goal }) => [
    `${section}: ${goal.what}`,
    goal.measured,
    goal.best,
    ratioText(goal.ratio),
    goal.target,
    verdictText(goal),
  ];
  return {
    id: "goals",
    title: "Goals",
    setup:
      "The goals of issue 12, each as this run measured it beside the best possible (or the figure it is " +
      "compared with) and their ratio. A goal not met is shown as not met; nothing was tuned to pass.",
    tables: [
      {
        columns: ["", "measured", "best", "ratio", "target", "met"],
        rows: goals.map(row),
        numeric: true,
        footnote: `${met} of ${goals.length} goals met.`,
      },
    ],
    notes: [
      "best: for freshness, the figure perfect scheduling at the API's 30 requests a minute would give " +
        "(Request budget); for politeness, the hand-written `rest` sensors on the same token (Side by " +
        "side); for restarts, none but the bounds themselves (no 429, the bridge's own budget); for lean, an " +
        "idle node on the same runtime and flags (how soon any node runs its first line, its CPU, the memory " +
        "it holds): the memory goals judge what the bridge holds above it, and the ratio is that increment's " +
        "share of the idle node's own figure. " +
        "Each section tells how it measured.",
    ],
  };
}
