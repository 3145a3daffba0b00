import { readFile, writeFile } from "node:fs/promises";

/**
 * Replaces what lies between the README's `<!-- <name>:start -->` and `<!-- <name>:end -->`
 * markers (`bench`, `soak`). Returns false, and leaves the file alone, when they are not there.
 */
export async function replaceReadmeBlock(
  readmePath: string,
  block: string,
  name = "bench",
): Promise<boolean> {
  const START = `<!-- ${name}:start -->`;
  const END = `<!-- ${name}:end -->`;
  const text = await readFile(readmePath, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return false;
  const updated = `${text.slice(0, start + START.length)}\n${block.trim()}\n${text.slice(end)}`;
  if (updated !== text) await writeFile(readmePath, updated);
  return true;
}
