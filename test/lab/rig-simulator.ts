import { ApiSimulator, type SimulatorOptions } from "../../src/simulator/index.js";

/**
 * What the lab's simulators allow a token a minute unless a suite says otherwise: room for a bridge
 * at the tests' pace (support/lab-bridges.ts), whose budget is told the same. The spec's 30 belongs
 * to the suites about the budget, which set it.
 */
export const LAB_API_LIMIT_PER_MINUTE = 600;

/** A rig's simulator: the suite's options over the lab's rate. */
export function startRigSimulator(options: SimulatorOptions): Promise<ApiSimulator> {
  return ApiSimulator.start({ rateLimitPerMinute: LAB_API_LIMIT_PER_MINUTE, ...options });
}
