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
