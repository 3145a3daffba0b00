import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Lives under test/ because the add-on layout reserves the top level (and any `config.*` name).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // Two cores, but the long suites (real Home Assistant, child processes) mostly wait on real
    // time: a third worker overlaps their waits without starving them.
    maxWorkers: 3,
  },
});
