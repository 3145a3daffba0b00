import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The node flags of the image's CMD (npm start's are the same: test/addon/container.test.ts), each
// checked for what it does on this machine's Node: once with the CMD's flags, and once with the
// CMD's flags less that one, which shows the effect (so that each test holds its flag, and says so
// when a Node no longer needs it). Whether a flag earns its place is the bench's (src/build/README.md).

const dockerfile = await readFile(new URL("../../addon/Dockerfile", import.meta.url), "utf8");
const ledger = await readFile(new URL("../../src/build/README.md", import.meta.url), "utf8");

/** `CMD ["node", …flags, "dist/src/main.js"]`: the flags. */
const cmdFlags = (JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1] ?? "[]") as string[]).filter(
  (arg) => arg.startsWith("--"),
);
const less = (flag: string) => cmdFlags.filter((f) => f !== flag);

/** Runs `script` (CommonJS) in a fresh node with these flags; its standard output and error together. */
async function nodeWith(flags: readonly string[], script: string): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [...flags, "-e", script], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
}

/**
 * A WebAssembly function (its argument plus one) called until V8 would tier it up. --single-threaded:
 * V8 compiles the tier-up on this thread, before the process can end, rather than in the background.
 */
const HOT_WASM = `const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0,
  7, 7, 1, 3, 105, 110, 99, 0, 0, 10, 9, 1, 7, 0, 32, 0, 65, 1, 106, 11]);
const { inc } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
let x = 0;
for (let i = 0; i < 3e6; i++) x = inc(x);
console.log("result", x);`;

/** A small JavaScript function called until V8 would compile it with Sparkplug, Maglev or TurboFan. */
const HOT_JS = `function hot(a, b) { return (a * 31 + b) % 1000003; }
let x = 0;
for (let i = 0; i < 3e6; i++) x = hot(x, i);
console.log("result", x);`;

/** Short-lived objects, 5,000 alive at a time: the young generation grows as far as V8 lets it. */
const CHURN = `let keep = [];
for (let i = 0; i < 2e6; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 5000) keep = []; }
const young = require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
console.log("young", young.space_size);`;

describe(`the image's node flags (${cmdFlags.join(" ")}), on Node ${process.versions.node}`, () => {
  it("are those the ledger has a row for, and no other", () => {
    const inLedger = [...ledger.matchAll(/^\| `(--[\w-]+(?:=[^`]*)?)`/gm)].map((match) => match[1]);
    expect(inLedger.sort()).toEqual([...cmdFlags].sort());
  });

  it("--liftoff-only: WebAssembly (undici's HTTP parser) is never compiled again by TurboFan", async () => {
    const trace = ["--single-threaded", "--trace-wasm-compilation-times"];
    const withFlags = await nodeWith([...cmdFlags, ...trace], HOT_WASM);
    expect(withFlags).toContain("result 3000000");
    expect(withFlags).toContain("using Liftoff");
    expect(withFlags).not.toContain("using TurboFan");
    expect(await nodeWith([...less("--liftoff-only"), ...trace], HOT_WASM)).toContain("using TurboFan");
  }, 30_000);

  it("--max-opt=0: JavaScript runs in the interpreter alone, never marked for a compiler", async () => {
    const compiled = /^\[(marking|compiling|completed compiling) /gm;
    const withFlags = await nodeWith([...cmdFlags, "--trace-opt"], HOT_JS);
    expect(withFlags).toContain("result");
    expect(withFlags.match(compiled) ?? []).toEqual([]);
    const without = await nodeWith([...less("--max-opt=0"), "--trace-opt"], HOT_JS);
    expect((without.match(compiled) ?? []).length).toBeGreaterThan(0);
  }, 30_000);

  it("--optimize-for-size: the young generation stays at 2 MiB at most, where V8 would grow it", async () => {
    const young = async (flags: readonly string[]) =>
      Number(/^young (\d+)$/m.exec(await nodeWith(flags, CHURN))?.[1] ?? Number.NaN);
    expect(await young(cmdFlags)).toBeLessThanOrEqual(2 * 1_048_576);
    expect(await young(less("--optimize-for-size"))).toBeGreaterThan(2 * 1_048_576);
  }, 30_000);
});
