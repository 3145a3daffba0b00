// The container's HEALTHCHECK: healthy while the main loop's heartbeat is recent.
import { statSync } from "node:fs";
import { DEFAULT_HEARTBEAT_FILE, HEARTBEAT_STALE_MS } from "./heartbeat.js";

const path = process.env.REWARD_FACTS_HEARTBEAT_FILE || DEFAULT_HEARTBEAT_FILE;
let age: number;
try {
  age = Date.now() - statSync(path).mtimeMs;
} catch {
  process.stderr.write(`no heartbeat at ${path}\n`);
  process.exit(1);
}
if (age > HEARTBEAT_STALE_MS) {
  process.stderr.write(`heartbeat is ${Math.round(age / 1000)} s old\n`);
  process.exit(1);
}
process.exit(0);
