import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Lives under test/ because the add-on layout reserves the top level (and any `config.*` name).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 240_000,
    // Two cores: a third worker made the real-Home-Assistant suites starve each other (a kill test
    // drain and the demo's terminal test timed out under it).
    maxWorkers: 2,
  },
});
