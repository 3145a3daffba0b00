import { GET_A_SUPPORTED_NODE, unsupportedNodeLine } from "../../src/node-line.js";

/*
 * Vitest's global setup: the suite runs on a Node.js line the bridge runs on, since it spawns the
 * bridge with the Node that runs it, and the bridge refuses any other at start (node-line.ts). On
 * an older one the run stops here, in one line, rather than with every bridge it starts refused.
 */
export default function setup(): void {
  const refused = unsupportedNodeLine(process.versions.node);
  if (refused)
    throw new Error(
      `${refused.split(";")[0]}; run the suite on a supported line: ${GET_A_SUPPORTED_NODE.replace("npm start", "npm test")}`,
    );
}
