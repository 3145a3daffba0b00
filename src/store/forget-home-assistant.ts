import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../log/logger.js";
import { ASSIST_MEMORY_KEY } from "./bridge-memories.js";
import { openStore } from "./open-store.js";
import { RECENT_DELIVERY_LOG_FILE } from "./recent-delivery-log.js";

/**
 * After the removal step took everything out of Home Assistant, what the data directory remembers
 * of it goes too, so that a bridge started again on it (standalone, or the add-on reinstalled with
 * its folder kept) begins as on a first start there: the facts answered lately, which it would
 * otherwise judge lost with the delivery records the removal deleted ("Home Assistant restarted
 * without the last facts", and sent them again), and what was offered to Assist (offered again).
 * The journal cursors stay: the facts already delivered are not sent again. A directory that
 * does not exist has nothing to forget.
 */
export async function forgetHomeAssistant(dataDir: string, logger: Logger): Promise<void> {
  const exists = await stat(dataDir).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (!exists) return;
  await rm(join(dataDir, RECENT_DELIVERY_LOG_FILE), { force: true });
  const store = await openStore({ dataDir, logger });
  try {
    await store.delete(ASSIST_MEMORY_KEY);
  } finally {
    await store.close();
  }
}
