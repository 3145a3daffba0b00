import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import {
  CURRENT_HOME_ASSISTANT_VERSION,
  OLDEST_HOME_ASSISTANT_VERSION,
} from "./lab/home-assistant-versions.js";
import { labSuites } from "./support/suite-layers.js";

/*
 * The suites that also run on the oldest Home Assistant the add-on supports: what users rely on
 * across releases (the publisher end to end, restarts, the blueprints and DOCS' examples) and the
 * harness they stand on. Every suite runs on the current release.
 */
const onOldestToo = [
  "test/lab/home-assistant.test.ts",
  "test/ha/publisher.test.ts",
  "test/fault/restart-ha.test.ts",
  "test/addon/blueprints-ha.test.ts",
  // The delivery script and MQTT discovery speak version-specific Home Assistant.
  "test/ha/delivery/delivery-record.test.ts",
  "test/fault/ha-crash-redelivery.test.ts",
  "test/ha/entities/mqtt/mqtt-publisher.test.ts",
  // Home Assistant's MQTT client without its broker: each release's paho queues differently.
  "test/ha/entities/mqtt/broker-away-from-ha.test.ts",
  // Derived facts, screen time allowed and the recorder's statistics, in both publishing modes.
  "test/ha/parent-facts.test.ts",
  // Dismissing what an earlier run raised: notifications and their services differ by release.
  "test/ha/link/notifications.test.ts",
  // The dashboard: Home Assistant's own cards, as each release's frontend draws them.
  "test/ha/dashboard/dashboard-ha.test.ts",
  // Ids as each release's own slugify makes them; texts in each release's language settings.
  "test/ha/entities/slugify.test.ts",
  "test/ha/texts/household-language.test.ts",
  // The removal: registries, helpers and notifications as each release lists and removes them.
  "test/ha/removal/removal.test.ts",
  // Assist: each release's own intents and conversation agent.
  "test/ha/parts/assist.test.ts",
  "test/ha/parts/assist-answers.test.ts",
  // A child's MQTT buttons, and a blueprint's automation run by a test fact.
  "test/ha/parts/buttons.test.ts",
];

/*
 * The suites that need a real Home Assistant, Mosquitto, Chromium or strace, read from their
 * imports (support/suite-layers.ts). The rest is the fast layer: `npm run test:fast`, the inner
 * loop, and what CI runs on the oldest Node line besides the whole suite on the image's (.ci/run).
 */
const lab = labSuites(fileURLToPath(new URL(".", import.meta.url)));

// Lives under test/ because the add-on layout reserves the top level (and any `config.*` name).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    // Every temporary folder of the run under one, removed at its end (lab/temp-root.ts).
    // On a Node.js line the bridge runs on (the bridges it spawns refuse any other).
    globalSetup: ["test/support/supported-node.ts", "test/lab/temp-root.ts"],
    // No test on the real clock begins in the household's last minute of a day (see the file).
    setupFiles: ["test/support/new-day-guard.ts"],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // Two cores: a third worker made the real-Home-Assistant suites starve each other (a kill test
    // drain and the demo's terminal test timed out under it), and on 2026-11-29, with CI's two busy
    // processes beside, the whole run took 25.5 min with three against 24.3 with two (the kill test
    // 308 s against 167). Shared by every project.
    maxWorkers: 2,
    /*
     * Coverage of the bridge's own code, measured by `npm test` (which turns it on: a run of a few
     * files would miss the threshold). Left out, each for a reason other than its figure:
     * - src/simulator: the Reward Facts API's stand-in, which the tests run against; not the bridge.
     * - src/demo, src/tools, src/build: the demo's wiring and the developer's commands (blueprints,
     *   dashboard, add-on bundle, the build); none of them runs in the add-on.
     * - src/main.ts: the process entry (signals, exit codes) runs only as a child process
     *   (test/app, support/bridge-process.ts), which v8's in-process coverage does not see.
     * - declaration files: no code.
     */
    coverage: {
      provider: "v8",
      include: ["src/**/*.ts"],
      exclude: [
        "src/simulator/**",
        "src/demo/**",
        "src/tools/**",
        "src/build/**",
        "src/main.ts",
        "src/**/*.d.ts",
      ],
      reporter: ["text-summary", ["json-summary", { file: "coverage-summary.json" }]],
      reportsDirectory: "coverage",
      // The figure even when a test failed: what a failing run still covered is worth seeing.
      reportOnFailure: true,
      thresholds: { lines: 95 },
    },
    // The default reporter, and where the run's time went (support/durations-reporter.ts).
    reporters: ["default", "./test/support/durations-reporter.ts"],
    // The fast layer, then one project per release, so that the two runs of a lab suite can go in
    // parallel; a suite reads its release with testedHomeAssistantVersion() (lab/tested-version.ts).
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: lab,
        },
      },
      {
        extends: true,
        test: {
          name: `HA ${CURRENT_HOME_ASSISTANT_VERSION}`,
          include: lab,
          provide: { homeAssistantVersion: CURRENT_HOME_ASSISTANT_VERSION },
        },
      },
      {
        extends: true,
        test: {
          name: `HA ${OLDEST_HOME_ASSISTANT_VERSION}`,
          include: onOldestToo,
          provide: { homeAssistantVersion: OLDEST_HOME_ASSISTANT_VERSION },
        },
      },
    ],
  },
});
