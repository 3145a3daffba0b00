import { readFile, writeFile } from "node:fs/promises";

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/**
 * Replaces what lies between the bench markers of the README. Returns false, and leaves the file
 * alone, when the markers are not there.
 */
export async function replaceReadmeBlock(readmePath: string, block: string): Promise<boolean> {
  const text = await readFile(readmePath, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return false;
  const updated = `${text.slice(0, start + START.length)}\n${block.trim()}\n${text.slice(end)}`;
  if (updated !== text) await writeFile(readmePath, updated);
  return true;
}
