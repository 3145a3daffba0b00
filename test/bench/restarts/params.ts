export interface RestartsParams {
  /** Starts killed (SIGKILL) one after the other, all within the first minute. */
  kills: number;
  /** How long each of them lives: long enough for a start's first round of requests. */
  lifeMs: number;
  /** From the first start until the last one (started after the kills) is stopped. */
  observeMs: number;
}

/** Five starts killed within a minute, then one that stays: the same in --quick (it is the definition). */
export function restartsParams(): RestartsParams {
  return { kills: 5, lifeMs: 9_000, observeMs: 105_000 };
}
