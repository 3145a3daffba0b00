import type { NodeRuntime } from "../real/runtimes.js";

export type PublishMode = "rest" | "mqtt";

/** One way of running the bridge that the cost section measures: how it publishes, on which Node. */
export interface BridgeConfig {
  mode: PublishMode;
  runtime: NodeRuntime;
  /** Shown for comparison, not how anyone runs the bridge: no goal is judged on it. */
  comparison?: boolean;
}

export function configLabel(config: BridgeConfig): string {
  return `${config.mode === "rest" ? "REST" : "MQTT"}, ${config.runtime.label}`;
}

/**
 * REST on the machine's Node, on npm's build of the image's Node line and on a musl build of Node
 * for the image's libc (the goals' subjects), the first two in MQTT mode as well (issue 11: MQTT's
 * cost beside REST's, which the musl build does not change), and, while the
 * image's flags include --lite-mode, REST on the image's Node without it: what the image would cost
 * were that flag dropped.
 */
export function bridgeConfigs(
  machine: NodeRuntime,
  image: NodeRuntime,
  imageMusl: NodeRuntime,
): BridgeConfig[] {
  const configs: BridgeConfig[] = [
    { mode: "rest", runtime: machine },
    { mode: "rest", runtime: image },
    { mode: "rest", runtime: imageMusl },
  ];
  if (image.flags.includes("--lite-mode")) {
    const flags = image.flags.filter((flag) => flag !== "--lite-mode");
    configs.push({
      mode: "rest",
      runtime: {
        ...image,
        label: `${image.label} less --lite-mode`,
        flags,
        role: "the image's Node and flags without --lite-mode, for comparison",
      },
      comparison: true,
    });
  }
  configs.push({ mode: "mqtt", runtime: machine }, { mode: "mqtt", runtime: image });
  return configs;
}
