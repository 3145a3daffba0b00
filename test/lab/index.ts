/*
 * The lab's one public surface: tests, test/support and the bench import the real systems from
 * here. Home Assistant (startHomeAssistant, a real core per call on each supported release, its
 * event log and its Python), Mosquitto, the two rigs that put them together with a simulator,
 * Chromium on Home Assistant's frontend, a link to Home Assistant that can be cut, and strace.
 * test/lab/README.md tells how each works, the releases, the cache and the variables.
 *
 * Withheld, for the lab's own files and self-tests only: how a release is installed (the Debian
 * root, the apt mirror, the host's Python, the wheel and its constraints, the file lock), the
 * Home Assistant process and its websocket behind HomeAssistantInstance, and the command runner.
 *
 * Imported directly, as leaves, where loading this file would load the whole lab (Playwright and
 * the harness, about a second per test file) for nothing: die-with-parent.ts, the guard every
 * suite that starts a process uses, Home Assistant or not; home-assistant-versions.ts in
 * test/vitest.config.ts; temp-root.ts, the run's global setup.
 */

export { launchChromium } from "./chromium.js";
export { CuttableLink } from "./cuttable-link.js";
export { type DeliveryRig, startDeliveryRig } from "./delivery-rig.js";
export type { EventRecorder } from "./event-recorder.js";
export { clockOffEnv, ensureFaketime } from "./faketime.js";
export { eventLogConfig, loggedEventIds, loggedEvents } from "./ha-event-log.js";
export type { HaEvent } from "./ha-websocket.js";
export { HOME_ASSISTANT_SETUP_TIMEOUT_MS, startHomeAssistant } from "./home-assistant.js";
export {
  type FrontendTokens,
  openFrontend,
  signInTestUser,
  visibleTexts,
} from "./home-assistant-frontend.js";
export { setUpMqttIntegration } from "./home-assistant-mqtt.js";
export { askHomeAssistantPython } from "./home-assistant-python.js";
export type { HaState, HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant-types.js";
export {
  CURRENT_HOME_ASSISTANT_VERSION,
  HOME_ASSISTANT_VERSIONS,
  type HomeAssistantVersion,
  OLDEST_HOME_ASSISTANT_VERSION,
  releaseOf,
} from "./home-assistant-versions.js";
export { type MosquittoBroker, startMosquitto } from "./mosquitto.js";
export { type MqttRig, startMqttRig } from "./mqtt-rig.js";
export { LAB_API_LIMIT_PER_MINUTE, startRigSimulator } from "./rig-simulator.js";
export { screenshot } from "./screenshots.js";
export {
  ensureStrace,
  parseSyscallTrace,
  stopTracedCommand,
  type TracedCall,
  underStrace,
} from "./syscall-trace.js";
export { testedHomeAssistantVersion } from "./tested-version.js";
