import { type Machine, machineLine } from "./machine.js";
import { markdownSection } from "./markdown.js";
import type { Section } from "./section.js";

export interface RunInfo {
  date: Date;
  machine: Machine;
  command: string;
  /** Real time the whole run took. */
  elapsedMs: number;
}

/** The header every copy of the results carries: when, where, how. */
export function runHeader(info: RunInfo): string {
  return [
    `Measured ${info.date.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machineLine(info.machine)}.`,
    `Command: \`${info.command}\` (${Math.round(info.elapsedMs / 60_000)} min of real time).`,
    "The machine is shared: compare figures within one run, not across runs.",
  ].join(" ");
}

/** test/bench/results.md: a title, the header, then every section. */
export function resultsDocument(info: RunInfo, sections: readonly Section[]): string {
  return [
    "# Benchmarks",
    runHeader(info),
    ...sections.map((section) => markdownSection(section, 2)),
    "",
  ].join("\n\n");
}

/** What the README shows between its markers: the header and the tables; definitions stay in results.md. */
export function readmeBlock(info: RunInfo, sections: readonly Section[], resultsPath: string): string {
  const tablesOnly = sections.map((section) => ({ ...section, setup: "", notes: [] }));
  return [
    runHeader(info),
    ...tablesOnly.map((section) => markdownSection(section, 4)),
    `What each figure means, and how it was measured: [${resultsPath}](${resultsPath}).`,
  ].join("\n\n");
}
