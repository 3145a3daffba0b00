// The zod the bridge's schemas are written in: zod/mini, the same checks as zod's classic API with
// functions in place of methods. Classic zod cannot be cut down to what a program uses (its
// schemas carry every method), so all of it would be bundled and loaded for a few dozen checks.
// What it saves: the ledger, src/build/README.md.
// Import it as a namespace (`import * as z`): esbuild still keeps only what is used.
// zod/mini ships no messages of its own: the English ones are loaded here, once, for the lines a
// schema mismatch writes to the log.

import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export * from "zod/mini";
