// Which layout a release's frontend draws the dashboard in. Pure.
//
// The sections layout (`type: sections`) came as experimental in 2024.3; the dashboard uses what
// came later: card and section visibility (2024.6), view badges (2024.8), sections spanning
// columns (2024.9), the heading card with badges (2024.10) and the 12-column grid of
// `grid_options` (2024.11; 2024.10 had 4-column `layout_options`). From 2024.11 it has them all;
// older releases (2024.3.3, the oldest the add-on supports) get the older masonry layout, which
// every release draws.

export type DashboardLayout = "sections" | "masonry";

/** The first release with every part of the sections layout the dashboard uses. */
export const SECTIONS_FROM = { year: 2024, month: 11 } as const;

/** From Home Assistant's version (`2026.11.0`, `2024.11.0b3`); masonry while it is not known. */
export function dashboardLayout(haVersion: string | undefined): DashboardLayout {
  const [year, month] = (haVersion ?? "").split(".").map(Number);
  if (year === undefined || month === undefined || !Number.isInteger(year) || !Number.isInteger(month))
    return "masonry";
  const newer = year > SECTIONS_FROM.year || (year === SECTIONS_FROM.year && month >= SECTIONS_FROM.month);
  return newer ? "sections" : "masonry";
}
