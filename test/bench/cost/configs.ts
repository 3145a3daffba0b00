import type { NodeRuntime } from "../real/runtimes.js";

export type PublishMode = "rest" | "mqtt";

/** One way of running the bridge that the cost section measures: how it publishes, on which Node. */
export interface BridgeConfig {
  mode: PublishMode;
  runtime: NodeRuntime;
  /** Shown for comparison, not how anyone runs the bridge: no goal is judged on it. */
  comparison?: boolean;
  /** A comparison: the runtime labelled `of` with these of its flags left out (flags.ts). */
  leftOut?: { of: string; flags: readonly string[] };
}

export function configLabel(config: BridgeConfig): string {
  return `${config.mode === "rest" ? "REST" : "MQTT"}, ${config.runtime.label}`;
}

/** The image's Node with no flag at all, as zigbee2mqtt's image runs node: the baseline of the flags. */
export function plainRuntime(image: NodeRuntime): NodeRuntime {
  return {
    ...image,
    label: `Node ${image.version.replace(/^v/, "").split(".")[0]}, no flags`,
    flags: [],
    role: "the image's Node with no flag, the baseline of what the flags earn",
  };
}

/** The image's runtime with one of its flags left out. */
export function lessFlagRuntime(image: NodeRuntime, flag: string): NodeRuntime {
  return {
    ...image,
    label: `${image.label} less ${flag}`,
    flags: image.flags.filter((f) => f !== flag),
    role: `the image's Node and flags without ${flag}, for comparison`,
  };
}

/**
 * REST on the machine's Node, on npm's build of the image's Node line and on a musl build of Node
 * for the image's libc (the goals' subjects); REST on the image's Node with no flags (what the flags
 * earn, for comparison) and, with `eachFlag`, once per flag of the image's CMD with that flag left
 * out; then MQTT on the first two (issue 11: MQTT's cost beside REST's, which the musl build does
 * not change).
 */
export function bridgeConfigs(
  machine: NodeRuntime,
  image: NodeRuntime,
  imageMusl: NodeRuntime,
  eachFlag = false,
): BridgeConfig[] {
  const configs: BridgeConfig[] = [
    { mode: "rest", runtime: machine },
    { mode: "rest", runtime: image },
    { mode: "rest", runtime: imageMusl },
    {
      mode: "rest",
      runtime: plainRuntime(image),
      comparison: true,
      leftOut: { of: image.label, flags: image.flags },
    },
  ];
  if (eachFlag) {
    for (const flag of image.flags) {
      configs.push({
        mode: "rest",
        runtime: lessFlagRuntime(image, flag),
        comparison: true,
        leftOut: { of: image.label, flags: [flag] },
      });
    }
  }
  configs.push({ mode: "mqtt", runtime: machine }, { mode: "mqtt", runtime: image });
  return configs;
}
