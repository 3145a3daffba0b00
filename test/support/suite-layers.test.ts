import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { labSuites } from "./suite-layers.js";

// A dynamic import in this file's own text would make it a lab suite: the scan reads text.

/** A test/ tree of its own: each file's path from test/ and its text. */
async function treeOf(files: Record<string, string>): Promise<string> {
  const testRoot = join(await mkdtemp(join(tmpdir(), "rf-layers-")), "test");
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(testRoot, path)), { recursive: true });
    await writeFile(join(testRoot, path), text);
  }
  return testRoot;
}

describe("which suites need the lab", () => {
  it("are those that reach a module starting a real system, through test/'s own files", async () => {
    const testRoot = await treeOf({
      "lab/index.ts": 'export { startHomeAssistant } from "./home-assistant.js";\n',
      "lab/home-assistant.ts": "export const startHomeAssistant = () => undefined;\n",
      "lab/home-assistant-versions.ts": 'export const CURRENT = "2026.11.0";\n',
      "support/rig.ts":
        'import { startHomeAssistant } from "../lab/index.js";\nexport const rig = startHomeAssistant;\n',
      "support/pure.ts": 'import type { X } from "../lab/index.js";\nexport const pure = 1;\n',
      "ha/direct.test.ts": 'import { startHomeAssistant } from "../lab/index.js";\n',
      "ha/through-support.test.ts": 'import { rig } from "../support/rig.js";\n',
      "ha/dynamic.test.ts": `const lab = await ${"import"}("../lab/home-assistant.js");\n`,
      "engine/types-only.test.ts": 'import { pure } from "../support/pure.js";\n',
      "addon/versions-leaf.test.ts": 'import { CURRENT } from "../lab/home-assistant-versions.js";\n',
      "engine/package-only.test.ts":
        'import { describe } from "vitest";\nimport { x } from "../../src/x.js";\n',
    });
    expect(labSuites(testRoot)).toEqual([
      "test/ha/direct.test.ts",
      "test/ha/dynamic.test.ts",
      "test/ha/through-support.test.ts",
    ]);
  });

  it("in this project: the real-Home-Assistant suites, not the engine's nor the add-on's files", () => {
    const lab = labSuites(fileURLToPath(new URL("..", import.meta.url)));
    expect(lab).toEqual(
      expect.arrayContaining([
        "test/ha/publisher.test.ts",
        "test/fault/kill-bridge.test.ts",
        "test/ha/dashboard/dashboard-browser.test.ts",
        "test/ha/entities/mqtt/mqtt-link.test.ts",
        "test/fault/power-cut.test.ts",
      ]),
    );
    for (const fast of [
      "test/engine/cadence.test.ts",
      "test/addon/manifest.test.ts",
      "test/bench/definitions.test.ts",
      "test/support/suite-layers.test.ts",
    ])
      expect(lab).not.toContain(fast);
  });
});
