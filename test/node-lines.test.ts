import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { GET_A_SUPPORTED_NODE, NODE_ENGINES, supportedNode } from "../src/node-line.js";
import { readText } from "./addon/supervisor-rules.js";

// The Node lines the project supports are those Node maintains; package.json's engines, README,
// .ci/run and the CI workflow say the same, and CI runs the oldest of them and the image's.

const SUPPORTED_LINES = [22, 24, 26];
const major = (version: string) => Number(version.split(".")[0]);

/** Whether an engines range of `^X.Y.Z` and `>=X.Y.Z` terms joined by `||` admits any release of `line`. */
function admitsLine(range: string, line: number): boolean {
  return range.split("||").some((term) => {
    const m = /^\s*(\^|>=)(\d+)(?:\.\d+){0,2}\s*$/.exec(term);
    if (!m) throw new Error(`engines term not understood: ${term}`);
    return m[1] === "^" ? Number(m[2]) === line : line >= Number(m[2]);
  });
}

const engines = (JSON.parse(readText("package.json")) as { engines: { node: string } }).engines.node;
/** Each leg of .ci/run: the Node release it runs on and the npm command it runs there. */
const ciLegs = [
  ...readText(".ci/run").matchAll(/--package=node@(\d+\.\d+\.\d+) -- (npm (?:test|run [\w:]+))$/gm),
].map((m) => ({ node: m[1] ?? "", command: m[2] ?? "" }));
const imageLine = Number(/^FROM node:(\d+)\./m.exec(readText("addon/Dockerfile"))?.[1]);

describe("the supported Node lines", () => {
  it("are the ones the bridge accepts at start (node-line.ts), and README says how to get one", () => {
    expect(NODE_ENGINES).toBe(engines);
    for (const [version, ok] of [
      ["22.12.0", true],
      ["22.11.9", false],
      ["23.1.0", false],
      ["24.0.0", true],
      ["26.13.1", true],
      ["v20.19.4", false],
    ] as const)
      expect(supportedNode(version), version).toBe(ok);
    expect(readText("README.md")).toContain(GET_A_SUPPORTED_NODE);
  });

  it("are what package.json's engines admit: 22, 24 and 26, no older line", () => {
    for (const line of SUPPORTED_LINES) expect(admitsLine(engines, line), `Node ${line}`).toBe(true);
    for (const line of [18, 20, 21]) expect(admitsLine(engines, line), `Node ${line}`).toBe(false);
  });

  it("are the ones README names", () => {
    const sentence = /^With Node\.js ([^:]+):$/m.exec(readText("README.md"))?.[1] ?? "";
    const lines = [...new Set([...sentence.matchAll(/\b(\d{2})(?:\.\d+)?\b/g)].map((m) => Number(m[1])))];
    expect(lines).toEqual(SUPPORTED_LINES);
  });

  it("are tested by .ci/run: the fast layer on the oldest line, the whole suite on the image's", () => {
    expect(ciLegs.map((leg) => major(leg.node))).toEqual([Math.min(...SUPPORTED_LINES), imageLine]);
    expect(ciLegs.map((leg) => leg.command)).toEqual(["npm run test:fast", "npm test"]);
    // 22.12 or later on the 22 line (vite, under vitest, needs it).
    const [oldest = { node: "" }] = ciLegs;
    expect(Number(oldest.node.split(".")[1])).toBeGreaterThanOrEqual(12);
  });

  it("are tested by the CI workflow with the same releases and commands as .ci/run", () => {
    const workflow = parse(readText(".github/workflows/test.yml")) as {
      jobs: { test: { strategy: { matrix: { include: Array<{ node: string; command: string }> } } } };
    };
    expect(workflow.jobs.test.strategy.matrix.include).toEqual(ciLegs);
  });
});
