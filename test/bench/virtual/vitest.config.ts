import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The benchmarks in virtual time: not part of `npm test` (their files are not *.test.ts).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../../..", import.meta.url)),
    include: ["test/bench/virtual/*.scenario.ts"],
    // The engines' data dirs under one temporary folder, removed at the end (test/lab/temp-root.ts).
    globalSetup: ["test/lab/temp-root.ts"],
    testTimeout: 60 * 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
