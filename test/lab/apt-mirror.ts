import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/*
 * The Debian mirror this machine already uses, read from its own apt sources: the tests then
 * reach only the registries the machine is configured for, and no host name is written into the
 * repository. Both formats apt reads: one-line `.list` entries and deb822 `.sources` stanzas.
 */

export interface AptSource {
  types: string[];
  uris: string[];
  suites: string[];
  enabled: boolean;
}

/** The archive serving `codename` itself (not -security, not a third-party repository), if any. */
export function debianMirror(sources: readonly AptSource[], codename: string): string | undefined {
  const source = sources.find(
    (entry) => entry.enabled && entry.types.includes("deb") && entry.suites.includes(codename),
  );
  return source?.uris[0]?.replace(/\/+$/, "");
}

/** One-line format: `deb [arch=amd64 signed-by=…] http://… bookworm main`. */
export function parseSourcesList(text: string): AptSource[] {
  const sources: AptSource[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    const withoutOptions = line.replace(/\[[^\]]*\]/, " ");
    const [type = "", uri = "", suite = ""] = withoutOptions.split(/\s+/);
    if (!uri || !suite) continue;
    sources.push({ types: [type], uris: [uri], suites: [suite], enabled: true });
  }
  return sources;
}

/** deb822 format: stanzas of `Field: value` lines separated by blank lines. */
export function parseDeb822Sources(text: string): AptSource[] {
  const sources: AptSource[] = [];
  const withoutComments = text
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n");
  for (const stanza of withoutComments.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last = "";
    for (const line of stanza.split("\n")) {
      // A continuation line (leading space) belongs to the previous field.
      if (/^\s/.test(line)) {
        if (last) fields.set(last, `${fields.get(last)} ${line.trim()}`);
        continue;
      }
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (!match) continue;
      last = (match[1] as string).toLowerCase();
      fields.set(last, (match[2] as string).trim());
    }
    const list = (name: string) => (fields.get(name) ?? "").split(/\s+/).filter(Boolean);
    if (!fields.has("uris")) continue;
    sources.push({
      types: list("types"),
      uris: list("uris"),
      suites: list("suites"),
      enabled: !/^(no|false|0)$/i.test(fields.get("enabled") ?? "yes"),
    });
  }
  return sources;
}

/** Every source apt itself would read (other extensions in sources.list.d are ignored by apt too). */
export async function readAptSources(etcApt = "/etc/apt"): Promise<AptSource[]> {
  const sources: AptSource[] = [];
  const read = (path: string) => readFile(path, "utf8").catch(() => "");
  sources.push(...parseSourcesList(await read(join(etcApt, "sources.list"))));
  const dir = join(etcApt, "sources.list.d");
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  for (const name of names) {
    if (name.endsWith(".list")) sources.push(...parseSourcesList(await read(join(dir, name))));
    if (name.endsWith(".sources")) sources.push(...parseDeb822Sources(await read(join(dir, name))));
  }
  return sources;
}
