// Process entry of the bridge (see bridge-cli.ts for its arguments, run-bridge.ts for the run,
// lifecycle.ts for how it ends).
import { bridgeCommand } from "./bridge-cli.js";
import { exitWith } from "./lifecycle.js";

exitWith(bridgeCommand(process.argv.slice(2), process.env), "unexpected failure");
