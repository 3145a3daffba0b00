import type { CommandLink } from "./command-link.js";

// One-line wrappers of the websocket commands the bridge sends in several places, over the one
// link (as home-assistant-js-websocket's own commands.ts does over its connection).

/** Calls a Home Assistant service (a notification raised or dismissed, a helper's value set). */
export async function callService(
  link: CommandLink,
  domain: string,
  service: string,
  data: Record<string, unknown>,
): Promise<void> {
  await link.command({ type: "call_service", domain, service, service_data: data });
}
