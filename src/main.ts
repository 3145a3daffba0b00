// Process entry of the bridge: the only place that exits (see run-bridge.ts for the run itself).
import { EXIT_FAILURE } from "./exit-codes.js";
import { runBridge } from "./run-bridge.js";

runBridge(process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
