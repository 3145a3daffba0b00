import { duration, int } from "../format.js";
import type { Section } from "../report/section.js";
import type { CatchupParams, CatchupResult } from "./params.js";

const PAGE = 100;
const LIMIT = 30;

/** Fewest requests that read a backlog: full pages, then one partial (or empty) page per child. */
export function minimumPages(perChild: readonly number[]): number {
  return perChild.reduce((sum, n) => sum + Math.floor(n / PAGE) + 1, 0);
}

/** Time the R-th request must wait for with 30 a minute in a sliding window, the first at once. */
export function bestTimeFor(requests: number): number {
  return Math.floor((requests - 1) / LIMIT) * 60_000;
}

export function catchupSection(params: CatchupParams, r: CatchupResult): Section {
  const pages = minimumPages(r.perChild);
  // One /children to know the children, the pages, and one today read per child.
  const minimum = 1 + pages + r.perChild.length;
  return {
    id: "catchup",
    title: "Catch-up (virtual time)",
    setup:
      `${params.facts.toLocaleString("en")} journal facts spread over ${params.children} children ` +
      `(${r.perChild.join(" / ")}) between midnight and 20:00, recorded before the bridge starts ` +
      "(no stored cursor, so it reads from the start of the day).",
    tables: [
      {
        columns: ["", "measured", "best the budget allows"],
        numeric: true,
        rows: [
          ["time to drain", duration(r.drainMs), duration(bestTimeFor(1 + pages))],
          ["requests used (total)", int(r.requests.total), int(minimum)],
          ["  events pages", int(r.requests.events), int(pages)],
          ["  today reads", int(r.requests.today), int(r.perChild.length)],
          ["  children list", int(r.requests.children), "1"],
          ["req/min max", int(r.perMinuteMax), String(LIMIT)],
          ["429s", int(r.requests.rateLimited), "0"],
          ["facts delivered", `${r.delivered} / ${r.facts}`, `${r.facts} / ${r.facts}`],
          ["duplicates / out of order", `${r.duplicates} / ${r.inOrder ? "none" : "some"}`, "0 / none"],
        ],
      },
    ],
    notes: [
      "time to drain: from the bridge's start to the last backlog fact handed to the sink, in virtual time.",
      "Best: every page full but the last, per child floor(n/100)+1 pages (a full page must be followed by " +
        "another read), plus the children list, sent as fast as 30 a minute in a sliding window allows " +
        "(30 at once, the next 30 a minute later…); today reads are not needed to drain and are left out " +
        "of the best time.",
      "The bridge spends 28 a minute at most. It reads the backlog a page a job: each child's today is read " +
        "between the pages at its own cadence (the sensors follow the household, not the backlog), and right " +
        "after a page only when the page brought recent facts (not marked replayed).",
    ],
  };
}
