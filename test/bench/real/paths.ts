import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root, where `npm run build` writes dist/. */
export const benchRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** The compiled entry `npm start` and the image run. */
export const compiledMain = join(benchRoot, "dist/src/main.js");
