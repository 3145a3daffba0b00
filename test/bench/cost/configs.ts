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
 * REST on the machine's Node and on the image's runtime (the goals' subject), the same two in MQTT
 * mode (issue 11), and, while the image's flags include --lite-mode, REST on the image's Node
 * without it: what the image would cost were that flag dropped.
 */
export function bridgeConfigs(machine: NodeRuntime, image: NodeRuntime): BridgeConfig[] {
  const configs: BridgeConfig[] = [
    { mode: "rest", runtime: machine },
    { mode: "rest", runtime: image },
  ];
  if (image.flags.includes("--lite-mode")) {
    const flags = image.flags.filter((flag) => flag !== "--lite-mode");
    configs.push({
      mode: "rest",
      runtime: {
        ...image,
        label: "Node 24, image flags less --lite-mode",
        flags,
        role: "the image's Node and flags without --lite-mode, for comparison",
      },
      comparison: true,
    });
  }
  configs.push({ mode: "mqtt", runtime: machine }, { mode: "mqtt", runtime: image });
  return configs;
}
