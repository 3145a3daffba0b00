import { mebibytes } from "../format.js";
import type { Table } from "../report/section.js";
import type { ConfigResult } from "./run-config.js";
import { usageOf } from "./usage.js";

/**
 * What a V8 flag of the image's CMD must earn to keep its place: more than the bench's noise
 * between two runs of one build (a few tenths of a MiB), in total RSS over the window. The plain
 * runtime is the baseline every flag must beat (zigbee2mqtt's image runs plain `node index.js`).
 */
export const FLAG_FLOOR_BYTES = 1_048_576;

/** What leaving some flags out cost the bridge: positive figures are what those flags earn. */
export interface FlagEarning {
  /** The flags left out, as the CMD spells them; all of them for the plain runtime. */
  flags: readonly string[];
  all: boolean;
  anonBytes: number;
  fileBytes: number;
  rssBytes: number;
  /** Earns at least FLAG_FLOOR_BYTES of total RSS; false when not measured. */
  earnsItsPlace: boolean;
}

/** Each comparison that left flags out, against the configuration it left them out of. */
export function flagEarnings(configs: readonly ConfigResult[]): FlagEarning[] {
  return configs.flatMap((c) => {
    const leftOut = c.config.leftOut;
    if (!leftOut) return [];
    const base = configs.find(
      (b) => b.config.mode === c.config.mode && !b.config.comparison && b.config.runtime.label === leftOut.of,
    );
    const without = usageOf(c.window?.samples ?? []);
    const withThem = usageOf(base?.window?.samples ?? []);
    const rssBytes = without.rssMean - withThem.rssMean;
    return [
      {
        flags: leftOut.flags,
        all: base !== undefined && leftOut.flags.length === base.config.runtime.flags.length,
        anonBytes: without.anonMean - withThem.anonMean,
        fileBytes: without.fileMean - withThem.fileMean,
        rssBytes,
        earnsItsPlace: Number.isFinite(rssBytes) && rssBytes >= FLAG_FLOOR_BYTES,
      },
    ];
  });
}

/** The earnings as the cost section shows them, or undefined when no comparison left a flag out. */
export function flagsTable(configs: readonly ConfigResult[]): Table | undefined {
  const earnings = flagEarnings(configs);
  const of = configs.find((c) => c.config.leftOut)?.config.leftOut?.of;
  if (earnings.length === 0 || of === undefined) return undefined;
  const verdict = (e: FlagEarning) =>
    !Number.isFinite(e.rssBytes) ? "not measured" : e.earnsItsPlace ? "earns its place" : "goes";
  return {
    caption:
      `What the flags earn: REST, ${of}, against the same with flags left out ` +
      `(the difference of the window's means; a flag stays if it earns ≥ ${mebibytes(FLAG_FLOOR_BYTES)} in all)`,
    columns: ["left out", "anonymous RSS", "file-backed RSS", "total RSS", "verdict"],
    numeric: true,
    rows: earnings.map((e) => [
      e.all ? `all of them (${e.flags.length})` : e.flags.join(" "),
      mebibytes(e.anonBytes),
      mebibytes(e.fileBytes),
      mebibytes(e.rssBytes),
      e.all ? "–" : verdict(e),
    ]),
  };
}
