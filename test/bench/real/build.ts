import { buildBridge as bundleBridge } from "../../../src/build/build-bridge.js";

let built: Promise<unknown> | undefined;

/**
 * Builds the bridge as `npm run build` does (the bundle in dist/src), once per bench: the
 * real-time sections measure what users run, not the sources.
 */
export async function buildBridge(): Promise<void> {
  built ??= bundleBridge();
  await built;
}
