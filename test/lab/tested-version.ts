import { inject } from "vitest";
import { type HomeAssistantVersion, isHomeAssistantVersion } from "./home-assistant-versions.js";

/*
 * Which Home Assistant release a suite runs on comes from its vitest project (test/vitest.config.ts
 * runs every suite on the current release and some again on the oldest one). Tests only: the
 * bench and the harness itself take the version as an argument.
 */
declare module "vitest" {
  export interface ProvidedContext {
    homeAssistantVersion: HomeAssistantVersion;
  }
}

/** The release this run of the suite is for; put it in the suite's name, pass it to startHomeAssistant. */
export function testedHomeAssistantVersion(): HomeAssistantVersion {
  const version: unknown = inject("homeAssistantVersion");
  if (!isHomeAssistantVersion(version))
    throw new Error(`no Home Assistant version provided to this test file (got ${String(version)})`);
  return version;
}
