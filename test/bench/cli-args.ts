import { parseArgs } from "node:util";

export const sectionIds = ["budget", "catchup", "side-by-side", "restarts", "cost", "delivery"] as const;
export type SectionId = (typeof sectionIds)[number];

export interface BenchArgs {
  sections: readonly SectionId[];
  quick: boolean;
  /**
   * The cost section also runs the bridge on the image's Node once per CMD flag, with that flag
   * left out: what each flag earns (cost/flags.ts). A configuration per flag: off unless asked.
   */
  eachFlag: boolean;
  /** Where the markdown goes; undefined: results.md for a full run, a temp file otherwise. */
  out: string | undefined;
  help: boolean;
}

export const benchUsage = `Usage: npm run bench -- [--only ${sectionIds.join(",")}] [--quick] [--each-flag] [--out FILE]

  --only LIST  run these sections only (comma-separated; default: all)
  --quick      fewer children counts and hours, short real-time runs (for iterating, not for the README)
  --each-flag  cost: also run the bridge on the image's Node without each of its CMD flags in turn,
               to show what each flag earns (one more configuration per flag)
  --out FILE   write the markdown there; by default a full run writes test/bench/results.md (and the
               README block between <!-- bench:start --> and <!-- bench:end -->), a partial or quick
               run a file in the temp dir, and beside it (FILE.readme-block.md) the README block it
               would have written, as a preview: README.md is left alone`;

export class BenchUsageError extends Error {
  override name = "BenchUsageError";
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let values: { only?: string; quick?: boolean; "each-flag"?: boolean; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        only: { type: "string" },
        quick: { type: "boolean" },
        "each-flag": { type: "boolean" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new BenchUsageError(error instanceof Error ? error.message : String(error));
  }
  const wanted = values.only
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean) ?? [...sectionIds];
  const unknown = wanted.filter((id) => !(sectionIds as readonly string[]).includes(id));
  if (unknown.length > 0) throw new BenchUsageError(`unknown section(s): ${unknown.join(", ")}`);
  return {
    sections: sectionIds.filter((id) => wanted.includes(id)),
    quick: values.quick ?? false,
    eachFlag: values["each-flag"] ?? false,
    out: values.out,
    help: values.help ?? false,
  };
}

/** A full run: every section, not quick. Only such a run updates the committed results. */
export function isFullRun(args: BenchArgs): boolean {
  return !args.quick && args.sections.length === sectionIds.length;
}
