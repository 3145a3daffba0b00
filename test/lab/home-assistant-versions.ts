import type { DebianRootSpec } from "./debian-root.js";

/*
 * The Home Assistant releases the tests run on, and what each needs to start with the tests'
 * configuration under `hass --skip-pip`. Versions as in each wheel's own constraints
 * (homeassistant/package_constraints.txt) or the integrations' manifest.json.
 */

/** The release people run today: every real-Home-Assistant suite runs on it. */
export const CURRENT_HOME_ASSISTANT_VERSION = "2026.11.0";
/**
 * The oldest release the add-on supports (config.yaml's `homeassistant:`): the suites that prove
 * what users rely on (publisher, restarts, blueprints) run on it too.
 */
export const OLDEST_HOME_ASSISTANT_VERSION = "2024.3.3";

export const HOME_ASSISTANT_VERSIONS = [
  CURRENT_HOME_ASSISTANT_VERSION,
  OLDEST_HOME_ASSISTANT_VERSION,
] as const;
export type HomeAssistantVersion = (typeof HOME_ASSISTANT_VERSIONS)[number];

/** The Python a release runs on: its wheel's `Requires-Python`, as a range of versions. */
export interface PythonNeed {
  /** Lowest version accepted, as [major, minor, micro]. */
  atLeast: readonly [number, number, number];
  /** Highest minor accepted (a release's C extensions are built for the minors it supports). */
  below: readonly [number, number];
}

export interface InstallRecipe {
  version: HomeAssistantVersion;
  python: PythonNeed;
  /** The environment variable that names a Python to use, overriding the search. */
  pythonVariable: string;
  /** Names looked up on PATH for a Python that fits. */
  pythonCandidates: readonly string[];
  /**
   * A Debian root that brings the Python, preferred where it can be built (as root, on Debian):
   * the same interpreter on every such machine, whatever the host has installed.
   */
  debianRoot?: DebianRootSpec;
  /** Installed with the wheel, under its constraints. */
  requirements: readonly string[];
  /** Appended to the wheel's constraints. */
  constraints: readonly string[];
  /** Modules under homeassistant.components that must import once installed. */
  integrations: readonly string[];
  /** Other modules that must import (what integrations pull in lazily). */
  modules: readonly string[];
}

/** What every test configuration loads, on any release (see home-assistant-config.ts). */
const testedIntegrations = [
  "frontend",
  "onboarding",
  "http",
  "api",
  "websocket_api",
  "automation",
  "blueprint",
  "input_boolean",
  // The event log's writer (ha-event-log.ts).
  "shell_command",
  // The blueprints' test lamp.
  "template",
  "light",
  // The RESTful sensors the benchmark runs beside the bridge.
  "rest",
  "rest.sensor",
  // The MQTT publisher's tests: the broker set up through the integration's config flow.
  "mqtt",
  "mqtt.config_flow",
  "config",
  // The bridge's delivery records.
  "input_text",
];

const recipes: Record<HomeAssistantVersion, InstallRecipe> = {
  "2024.3.3": {
    version: "2024.3.3",
    // The last release for Python 3.11 (2024.4 needs 3.12).
    python: { atLeast: [3, 11, 0], below: [3, 12] },
    pythonVariable: "REWARD_FACTS_HA_PYTHON",
    pythonCandidates: ["python3.11", "python3"],
    /*
     * The frontend is a critical integration in 2024.3: when it or one of its dependencies cannot
     * be imported, HA falls into recovery mode and the API is not served as configured.
     * - home-assistant-frontend: frontend. janus: file_upload (a frontend dependency).
     * - SQLAlchemy, fnv-hash-fast: analytics (an onboarding dependency) imports the recorder.
     * - Pillow: image_upload; securetar: backup; psutil-home-assistant: hardware (default integrations).
     * - pyotp, PyQRCode: the auth multi-factor modules.
     * - jsonpath, xmltodict: rest, at the versions of its manifest. paho-mqtt: mqtt's manifest.
     * - numpy: the frontend's first command, get_services, imports camera (to check the services'
     *   supported features), which imports stream, which needs numpy; without it the command
     *   fails and the frontend never leaves its "Loading data" screen.
     * - hassil, home-assistant-intents: conversation's manifest (Assist's agent, test/ha/assist).
     */
    requirements: [
      "home-assistant-frontend==20240307.0",
      "hassil==1.6.1",
      "home-assistant-intents==2024.3.12",
      "janus==1.0.0",
      "SQLAlchemy==2.0.27",
      "fnv-hash-fast==0.5.0",
      "Pillow==10.2.0",
      "securetar==2024.2.1",
      "psutil-home-assistant==0.0.1",
      "pyotp==2.8.0",
      "PyQRCode==1.2.1",
      "jsonpath==0.82.2",
      "xmltodict==0.13.0",
      "paho-mqtt==1.6.1",
      "numpy==1.26.0",
    ],
    /*
     * josepy 2 dropped ComparableX509, which acme uses; hass-nabucasa imports acme, and the http
     * integration imports hass-nabucasa while handling every request, so each one would answer 500.
     */
    constraints: ["josepy==1.14.0"],
    integrations: [
      ...testedIntegrations,
      "analytics",
      "file_upload",
      "recorder",
      "backup",
      "hardware",
      "image_upload",
      "camera",
      "conversation",
    ],
    modules: ["hass_nabucasa", "pyotp", "pyqrcode"],
  },
  "2026.11.0": {
    version: "2026.11.0",
    // The wheel's Requires-Python: >=3.14.2.
    python: { atLeast: [3, 14, 2], below: [3, 15] },
    pythonVariable: "REWARD_FACTS_HA_PYTHON314",
    pythonCandidates: ["python3.14"],
    // Debian 13 has 3.13; testing (forky) has 3.14.
    debianRoot: {
      suite: "forky",
      script: "sid",
      packages: ["python3.14", "python3.14-venv", "ca-certificates"],
      python: "/usr/bin/python3.14",
    },
    /*
     * The recorder's SQLAlchemy and fnv-hash-fast are core requirements since 2024: the wheel brings
     * them. Integrations 2026.11 loads by itself without being asked (conversation, tts, analytics…)
     * fail to import and only log it; REST and websocket are served all the same.
     * - home-assistant-frontend: frontend's manifest. paho-mqtt: mqtt's. numpy: at its constraint.
     * - jsonpath-python, xmltodict: rest's manifest.
     * - aiohasupervisor: hassio's manifest; mqtt's config flow imports hassio (for the add-on step).
     * - The frontend's first command, get_services, validates every loaded services.yaml against
     *   the entity integrations, which imports ai_task, assist_satellite and camera (service.py's
     *   _base_components): without what they import, it fails and the frontend never leaves its
     *   "Loading…" screen. hassil, home-assistant-intents, gazetteer-matcher: conversation;
     *   mutagen: tts; ha-ffmpeg: ffmpeg; pymicro-vad, pyspeex-noise: assist_pipeline; PyTurboJPEG:
     *   camera. The versions the wheel pins of pymicro-vad and pyspeex-noise have no build for
     *   Python 3.14 (and the root has no compiler): the next ones, which do, replace them.
     */
    requirements: [
      "home-assistant-frontend==20261028.4",
      "paho-mqtt==2.1.0",
      "aiohasupervisor==0.8.1",
      "numpy==2.3.2",
      "jsonpath-python==1.1.6",
      "xmltodict==1.0.4",
      "hassil==3.12.1",
      "home-assistant-intents==2026.10.27",
      "gazetteer-matcher==1.1.0",
      "mutagen==1.48.1",
      "ha-ffmpeg==3.2.2",
      "pymicro-vad==2.1.0",
      "pyspeex-noise==2.0.1",
      "PyTurboJPEG==1.8.3",
    ],
    constraints: ["pymicro-vad==2.1.0", "pyspeex-noise==2.0.1"],
    integrations: [...testedIntegrations, "ai_task", "assist_satellite", "camera"],
    modules: ["hass_nabucasa"],
  },
};

export function installRecipe(version: HomeAssistantVersion): InstallRecipe {
  return recipes[version];
}

export function isHomeAssistantVersion(value: unknown): value is HomeAssistantVersion {
  return (HOME_ASSISTANT_VERSIONS as readonly unknown[]).includes(value);
}

/** `2024.3.3` → `2024.3.0`: the form config.yaml's `homeassistant:` and blueprints' min_version take. */
export function releaseOf(version: HomeAssistantVersion): string {
  const [year, month] = version.split(".");
  return `${year}.${month}.0`;
}
