import { request } from "../../../http/undici.js";
import type { SupervisorAccess } from "./supervisor-broker.js";

// The add-on's page in Home Assistant, as the devices' "visit" link (their configuration_url): its
// slug is the Supervisor's to tell (a repository's add-ons get a prefix of the repository's hash).

/**
 * `homeassistant://hassio/addon/<slug>/info`, from the Supervisor's `/addons/self/info`; undefined
 * when it cannot tell (the devices then have no link: a cosmetic loss, not a reason to stop).
 */
export async function addonPage(
  supervisor: SupervisorAccess,
  signal?: AbortSignal,
): Promise<string | undefined> {
  try {
    const response = await request(`${supervisor.url}/addons/self/info`, {
      headers: { authorization: `Bearer ${supervisor.token}` },
      signal,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) return undefined;
    const slug = (JSON.parse(text) as { data?: { slug?: unknown } }).data?.slug;
    return typeof slug === "string" && /^[\w.-]+$/.test(slug)
      ? `homeassistant://hassio/addon/${slug}/info`
      : undefined;
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}
