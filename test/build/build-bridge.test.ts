import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltBridge, buildBridgeApart } from "../support/built-bridge.js";

// `npm run build` as the image's build stage runs it: what the bundle holds, and what each entry
// loads before it runs a line. test/addon/built-bridge.test.ts runs it against Home Assistant.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

let built: BuiltBridge;

beforeAll(async () => {
  built = await buildBridgeApart();
}, 60_000);

afterAll(() => built?.remove());

/** The output of one entry point (`src/main.ts`). */
function entryOutput(metafile: Metafile, entryPoint: string): string {
  const found = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === entryPoint);
  if (!found) throw new Error(`no output for ${entryPoint}`);
  return found[0];
}

/** The files node loads with an entry before running it: its static imports, all the way down. */
function loadedAtStart(metafile: Metafile, entryPoint: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? [])
      if (imported.kind === "import-statement" && !imported.external) visit(imported.path);
  };
  visit(entryOutput(metafile, entryPoint));
  return loaded;
}

/** The sources (`src/…`, `node_modules/<package>/…`) bundled into these files. */
function sourcesOf(metafile: Metafile, files: Iterable<string>): string[] {
  return [...files].flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {}));
}

const packageOf = (source: string) => {
  const path = source.split("node_modules/").at(-1) ?? "";
  return source.includes("node_modules/")
    ? path
        .split("/")
        .slice(0, path.startsWith("@") ? 2 : 1)
        .join("/")
    : "";
};

describe("npm run build", () => {
  it("bundles the bridge and nothing of the demo, the simulator, the terminal view, the tools or the build", () => {
    const sources = Object.keys(built.metafile.inputs);
    expect(sources).toContain("src/main.ts");
    expect(sources).toContain("src/health/check.ts");
    for (const folder of ["src/demo/", "src/simulator/", "src/tools/", "src/build/"])
      expect(
        sources.filter((source) => source.startsWith(folder)),
        folder,
      ).toEqual([]);
    expect(sources).not.toContain("src/console/live-view-sink.ts");
    const packages = new Set(sources.map(packageOf));
    for (const toolOnly of [
      "cli-table3",
      "log-update",
      "tsx",
      "yaml",
      "vitest",
      "playwright-core",
      "esbuild",
    ])
      expect(packages, toolOnly).not.toContain(toolOnly);
    // The packages the bridge runs on are in it, so that the image needs no node_modules.
    for (const used of ["undici", "zod", "keyv", "pino", "ws", "home-assistant-js-websocket", "mqtt"])
      expect(packages, used).toContain(used);
  });

  it("loads MQTT's code only when MQTT is configured", () => {
    const { metafile } = built;
    const atStart = sourcesOf(metafile, loadedAtStart(metafile, "src/main.ts"));
    expect(atStart).toContain("src/app.ts");
    expect(
      atStart.filter((source) => packageOf(source) === "mqtt" || source.startsWith("src/ha/mqtt/")),
    ).toEqual([]);
    // …and it is there for the MQTT mode to load: a chunk that src/ha/index.ts imports when needed.
    const everything = sourcesOf(metafile, Object.keys(metafile.outputs));
    expect(everything).toContain("src/ha/entities/mqtt/mqtt-entities.ts");
  });

  it("takes zod's small build and its English messages only", () => {
    // What the files hold (esbuild reads all of zod's locales, through an index, and keeps one).
    const bundled = Object.values(built.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs).flatMap(([source, input]) => (input.bytesInOutput > 0 ? [source] : [])),
    );
    const zodSources = [...new Set(bundled)].filter((source) => packageOf(source) === "zod");
    expect(zodSources.filter((source) => source.includes("/v4/mini/")).length).toBeGreaterThan(0);
    // Classic zod's schemas carry every method, so none of it can be left out (src/zod.ts).
    expect(zodSources.filter((source) => source.includes("/v4/classic/"))).toEqual([]);
    expect(zodSources.filter((source) => source.includes("/locales/"))).toEqual([
      "node_modules/zod/v4/locales/en.js",
    ]);
  });

  it("writes files of Latin-1 characters only, which V8 holds at one byte a character", async () => {
    for (const file of Object.keys(built.metafile.outputs)) {
      // The account names its files from the repository's root, as esbuild ran there.
      const text = await readFile(join(repoRoot, file), "utf8");
      const wide = [...text].filter((character) => (character.codePointAt(0) ?? 0) > 0xff);
      expect(wide, file).toEqual([]);
    }
  });

  it("writes JavaScript only: undici's HTTP parser stays inside the bundle, as undici ships it", async () => {
    const files = Object.keys(built.metafile.outputs);
    expect(files.filter((file) => !file.endsWith(".js"))).toEqual([]);
    // "\0asm\x01\0\0\0", the start of every WebAssembly module, in base64.
    const texts = await Promise.all(files.map((file) => readFile(join(repoRoot, file), "utf8")));
    expect(texts.some((text) => text.includes("AGFzbQEAAAA"))).toBe(true);
  });

  it("gives the health check nothing but its own few lines", () => {
    const { metafile } = built;
    const sources = sourcesOf(metafile, loadedAtStart(metafile, "src/health/check.ts"));
    expect(sources.filter((source) => !source.startsWith("src/health/"))).toEqual([]);
  });

  it("runs with plain node and no node_modules: a bad configuration is refused as main.ts refuses it", async () => {
    const refused = await promisify(execFile)(built.launch.command, built.launch.args, {
      cwd: built.root,
      env: { PATH: process.env.PATH ?? "" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("REWARD_FACTS_API_TOKEN: is required");
  }, 30_000);
});
