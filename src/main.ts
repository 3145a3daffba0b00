// Process entry of the bridge (see run-bridge.ts for the run, lifecycle.ts for how it ends).
import { exitWith } from "./lifecycle.js";
import { runBridge } from "./run-bridge.js";

exitWith(runBridge(process.env, { argv: process.argv.slice(2) }), "unexpected failure");
