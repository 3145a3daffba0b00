import Table from "cli-table3";
import type { Section } from "./section.js";

/** A section as the terminal shows it: title, tables drawn by cli-table3, then the notes. */
export function terminalSection(section: Section): string {
  const lines = [`\n== ${section.title} ==`, wrap(section.setup)];
  for (const table of section.tables) {
    const drawn = new Table({
      head: table.columns,
      style: { head: [], border: [] },
      colAligns: table.columns.map((_, i) => (i > 0 && table.numeric ? "right" : "left")),
    });
    drawn.push(...table.rows);
    if (table.caption) lines.push(table.caption);
    lines.push(drawn.toString());
    if (table.footnote) lines.push(wrap(table.footnote));
  }
  for (const note of section.notes) lines.push(wrap(`- ${note}`, "  "));
  return lines.join("\n");
}

function wrap(text: string, indent = "", width = 110): string {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = indent + word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) out.push(line);
  return out.join("\n");
}
