import type { ProcSample } from "../real/proc-stats.js";
import { max, mean } from "../stats.js";

/** What a process cost over a sampled window: memory by kind, and CPU. */
export interface Usage {
  anonMean: number;
  anonMax: number;
  fileMean: number;
  rssMean: number;
  rssMax: number;
  /** CPU time between the first and the last sample, and its share of one core. */
  cpuMs: number;
  cpuShare: number;
  spanMs: number;
}

export function usageOf(samples: readonly ProcSample[]): Usage {
  const first = samples[0];
  const last = samples.at(-1);
  const spanMs = first && last ? last.at - first.at : Number.NaN;
  const cpuMs = first && last && spanMs > 0 ? last.cpuMs - first.cpuMs : Number.NaN;
  return {
    anonMean: mean(samples.map((s) => s.anonBytes)),
    anonMax: max(samples.map((s) => s.anonBytes)),
    fileMean: mean(samples.map((s) => s.fileBytes)),
    rssMean: mean(samples.map((s) => s.rssBytes)),
    rssMax: max(samples.map((s) => s.rssBytes)),
    cpuMs,
    cpuShare: cpuMs / spanMs,
    spanMs,
  };
}

/** What a bridge holds above an idle node of the same runtime and flags (means over each window). */
export interface Increment {
  anonBytes: number;
  fileBytes: number;
  rssBytes: number;
}

/**
 * The bridge's own cost: an idle node already holds some 40 MiB (the node binary's pages, V8's
 * heap), which no bridge can go below and no bridge's code decides; what the bridge adds above it
 * is what the bridge's code and its measures decide.
 */
export function aboveIdle(bridge: Usage, idle: Usage): Increment {
  return {
    anonBytes: bridge.anonMean - idle.anonMean,
    fileBytes: bridge.fileMean - idle.fileMean,
    rssBytes: bridge.rssMean - idle.rssMean,
  };
}
