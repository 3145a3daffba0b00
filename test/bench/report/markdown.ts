import type { Section, Table } from "./section.js";

/** A GitHub-flavoured markdown table; pipes inside cells are escaped. */
export function markdownTable(table: Table): string {
  const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  const rule = table.columns.map((_, i) => (i > 0 && table.numeric ? "---:" : "---"));
  return [line(table.columns), `| ${rule.join(" | ")} |`, ...table.rows.map(line)].join("\n");
}

export function markdownSection(section: Section, level = 3): string {
  const heading = "#".repeat(level);
  const parts = [`${heading} ${section.title}`];
  if (section.setup) parts.push(section.setup);
  for (const table of section.tables) {
    if (table.caption) parts.push(`**${table.caption}**`);
    parts.push(markdownTable(table));
    if (table.footnote) parts.push(table.footnote);
  }
  if (section.notes.length > 0) parts.push(section.notes.map((note) => `- ${note}`).join("\n"));
  return parts.join("\n\n");
}
