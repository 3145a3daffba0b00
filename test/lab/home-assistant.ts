import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { freeLoopbackPort } from "../support/free-port.js";
import { writeHomeAssistantConfig } from "./home-assistant-config.js";
import { ensureHomeAssistant } from "./home-assistant-install.js";
import { HomeAssistant, log, PortTakenError } from "./home-assistant-instance.js";
import type { HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant-types.js";

/*
 * Starting a real Home Assistant; tests reach it, like the rest of the lab, through index.ts.
 * test/lab/README.md tells the releases, the cache and the environment variables.
 */

/**
 * Starts a real Home Assistant (the current release unless `version` says otherwise) on a free
 * loopback port with a fresh config dir, onboards it and waits until it is RUNNING. Installs it
 * first if this machine has not yet (several minutes: give the calling hook
 * HOME_ASSISTANT_SETUP_TIMEOUT_MS).
 */
export async function startHomeAssistant(
  options: StartHomeAssistantOptions = {},
): Promise<HomeAssistantInstance> {
  const install = await ensureHomeAssistant(options.version);
  for (let attempt = 1; ; attempt++) {
    const configDir = await mkdtemp(join(install.configParent, "reward-facts-ha-"));
    const port = await freeLoopbackPort();
    await writeHomeAssistantConfig(configDir, {
      port,
      timeZone: options.timeZone ?? "Europe/Paris",
      automations: options.automations,
      extraConfig: options.extraConfig,
    });
    const instance = new HomeAssistant(install, configDir, port);
    try {
      await instance.boot();
      return instance;
    } catch (error) {
      await instance.stop();
      // The free port can be taken by another process before HA binds it; a new one is cheap.
      if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
      log(`port ${port} was taken before Home Assistant could bind it, trying another`);
    }
  }
}

/**
 * For the `beforeAll` that starts Home Assistant: a first run installs each release (a few minutes
 * each, longer when both install at once on two cores), and a worker waits for another's install.
 */
export const HOME_ASSISTANT_SETUP_TIMEOUT_MS = 20 * 60_000;
