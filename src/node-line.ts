// The Node.js lines the bridge runs on: those Node maintains, as package.json's engines says them
// (a test holds the two together). npm only warns about engines, and an older line runs the
// bridge until something it lacks fails far from here: it is refused at start, in one line.

/** package.json's `engines.node`, `^X.Y.Z` and `>=X.Y.Z` terms joined by `||`. */
export const NODE_ENGINES = "^22.12.0 || >=24.0.0";

/** How to run the bridge on a supported line without installing one (npm's `node` package). */
export const GET_A_SUPPORTED_NODE = "npx --yes --package=node@22 -- npm start";

const parts = (version: string) =>
  version.replace(/^v/, "").split(".").map(Number) as [number, number, number];

function atLeast(version: readonly number[], floor: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    const [have = 0, need = 0] = [version[i], floor[i]];
    if (have !== need) return have > need;
  }
  return true;
}

/** Whether `version` (`22.12.0`, `v20.19.4`) is within the engines range. */
export function supportedNode(version: string, engines = NODE_ENGINES): boolean {
  const running = parts(version);
  return engines.split("||").some((term) => {
    const match = /^\s*(\^|>=)(\d+\.\d+\.\d+)\s*$/.exec(term);
    if (!match) throw new Error(`engines term not understood: ${term}`);
    const floor = parts(match[2] as string);
    return atLeast(running, floor) && (match[1] === ">=" || running[0] === floor[0]);
  });
}

/** The line that refuses an unsupported Node, or undefined on a supported one. */
export function unsupportedNodeLine(version: string): string | undefined {
  if (supportedNode(version)) return undefined;
  return `Node.js ${version.replace(/^v/, "")} is not supported: the bridge runs on Node.js 22 (22.12 or later), 24 or 26; without one installed, run it with ${GET_A_SUPPORTED_NODE}`;
}
