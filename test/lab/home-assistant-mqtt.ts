import type { HomeAssistantInstance } from "./home-assistant-types.js";
import type { MosquittoBroker } from "./mosquitto.js";

interface FlowStep {
  type: "form" | "menu" | "create_entry" | "abort";
  flow_id: string;
  step_id?: string;
  menu_options?: string[] | Record<string, string>;
  errors?: Record<string, string> | null;
  reason?: string;
  data_schema?: Array<{ name: string; type?: string }>;
}

/**
 * Sets up Home Assistant's MQTT integration on `broker` the way a user does (its config flow;
 * it has no YAML set-up): on recent releases the first step is a menu (add-on or broker).
 */
export async function setUpMqttIntegration(
  ha: HomeAssistantInstance,
  /** Where Home Assistant reaches the broker on loopback: the broker's port, or a relay's to it. */
  broker: Pick<MosquittoBroker, "port">,
  credentials?: { username: string; password: string },
): Promise<void> {
  const post = async (path: string, body: unknown): Promise<FlowStep> => {
    const response = await ha.api<FlowStep>("POST", path, body);
    if (response.status !== 200) {
      throw new Error(
        `POST ${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`,
      );
    }
    return response.body;
  };
  let step = await post("/api/config/config_entries/flow", { handler: "mqtt", show_advanced_options: false });
  for (let turn = 0; turn < 5; turn++) {
    if (step.type === "create_entry") break;
    if (step.type === "abort") throw new Error(`the MQTT config flow aborted: ${step.reason}`);
    const path = `/api/config/config_entries/flow/${step.flow_id}`;
    if (step.type === "menu") {
      step = await post(path, { next_step_id: "broker" });
    } else if (step.step_id === "broker") {
      // Recent releases fold the advanced fields into a section, submitted as its own object with
      // what the form shows by default: no client certificate, no broker certificate check.
      const advanced = (step.data_schema ?? []).some((field) => field.name === "other_settings");
      step = await post(path, {
        broker: "127.0.0.1",
        port: broker.port,
        ...(credentials ?? {}),
        ...(advanced ? { other_settings: { set_client_cert: false, set_ca_cert: "off" } } : {}),
      });
      if (step.type === "form" && step.errors && Object.keys(step.errors).length > 0) {
        throw new Error(`the MQTT config flow refused the broker: ${JSON.stringify(step.errors)}`);
      }
    } else {
      throw new Error(`unexpected step of the MQTT config flow: ${JSON.stringify(step)}`);
    }
  }
  if (step.type !== "create_entry")
    throw new Error(`the MQTT config flow did not finish: ${JSON.stringify(step)}`);
  // Loaded, as its config entry says (the lists of services would load every description, and
  // one of them needs numpy, which the test install of 2024.3 leaves out).
  await ha.waitFor(
    async () => {
      const entries = await ha.api<Array<{ domain: string; state: string }>>(
        "GET",
        "/api/config/config_entries/entry?domain=mqtt",
      );
      return (
        Array.isArray(entries.body) && entries.body.some((e) => e.domain === "mqtt" && e.state === "loaded")
      );
    },
    { timeoutMs: 30_000, description: "the MQTT integration loaded" },
  );
}
