import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The walls between src's folders, read from the imports themselves: configuration knows nothing
// of Home Assistant or the engine (not even a test hook's type: it keeps its own), the store meets
// delivery through a port (engine/storage.ts), a folder with an index.ts is entered only through
// it, and no file reaches itself through its imports. Tests may reach inside a folder; src may not.

const src = fileURLToPath(new URL("../src", import.meta.url));

interface Import {
  /** The importing file, from src (`tools/dashboard.ts`). */
  from: string;
  /** The imported file, from src (`ha/connection.ts`). */
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative import and re-export of src's files (static, and `import("…")`), resolved. */
function importsOfSrc(): Import[] {
  const found: Import[] = [];
  const specifier = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/g;
  for (const file of sourceFiles(src)) {
    for (const match of readFileSync(file, "utf8").matchAll(specifier)) {
      const target = resolve(dirname(file), (match[1] ?? match[2] ?? "").replace(/\.js$/, ".ts"));
      found.push({
        from: relative(src, file).split(sep).join("/"),
        to: relative(src, target).split(sep).join("/"),
      });
    }
  }
  return found;
}

const imports = importsOfSrc();
const folderOf = (path: string) => path.split("/")[0] ?? "";

describe("src's folders", () => {
  it("are read whole: the imports are found, and each resolves to a file", () => {
    expect(imports.length).toBeGreaterThan(300);
    expect(imports.filter(({ to }) => !existsSync(join(src, to)))).toEqual([]);
  });

  it.each([
    ["config", "ha"],
    ["config", "engine"],
    ["store", "ha"],
    ["engine", "ha"],
    ["engine", "store"],
  ])("%s/ imports nothing of %s/", (from, to) => {
    expect(imports.filter((entry) => folderOf(entry.from) === from && folderOf(entry.to) === to)).toEqual([]);
  });

  it("make no circle: no file reaches itself through its imports", () => {
    const importsOf = new Map<string, string[]>();
    for (const { from, to } of imports) importsOf.set(from, [...(importsOf.get(from) ?? []), to]);
    const circles: string[][] = [];
    // Walked depth first: a file met again on the way that led to it closes a circle.
    const walked = new Set<string>();
    const walk = (file: string, way: readonly string[]) => {
      const again = way.indexOf(file);
      if (again >= 0) circles.push([...way.slice(again), file]);
      if (again >= 0 || walked.has(file)) return;
      for (const to of importsOf.get(file) ?? []) walk(to, [...way, file]);
      walked.add(file);
    };
    for (const file of importsOf.keys()) walk(file, []);
    expect(circles).toEqual([]);
  });

  it("are entered through their index.ts, where they have one", () => {
    const faced = new Set(
      readdirSync(src, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(src, entry.name, "index.ts")))
        .map((entry) => entry.name),
    );
    expect([...faced].sort()).toEqual(["ha", "simulator", "store"]);
    const pastTheFace = imports.filter(
      ({ from, to }) =>
        faced.has(folderOf(to)) && folderOf(from) !== folderOf(to) && to !== `${folderOf(to)}/index.ts`,
    );
    expect(pastTheFace).toEqual([]);
  });

  it("ha/'s wings stand in floors: none imports a wing above it (texts, link, entities, parts, then the users of parts, then removal)", () => {
    // A wing's floor; the wings of one floor import nothing of each other. The conductor and the
    // face (ha/'s top) stand above them all.
    const floors: Record<string, number> = {
      texts: 0,
      link: 1,
      entities: 2,
      parts: 3,
      delivery: 4,
      dashboard: 4,
      household: 4,
      removal: 5,
    };
    const wingOf = (path: string) => {
      const [top, wing] = path.split("/");
      return top === "ha" && wing && wing in floors ? wing : undefined;
    };
    const wings = readdirSync(join(src, "ha"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(wings.sort()).toEqual(Object.keys(floors).sort());
    const upward = imports.filter(({ from, to }) => {
      const [a, b] = [wingOf(from), wingOf(to)];
      return a !== undefined && b !== undefined && a !== b && (floors[a] ?? 0) <= (floors[b] ?? 0);
    });
    expect(upward).toEqual([]);
    const topFiles = readdirSync(join(src, "ha"), { withFileTypes: true }).filter((entry) => entry.isFile());
    // The face, the conductor, and its wiring.
    expect(topFiles.map((entry) => entry.name).sort()).toEqual(["ha-sink.ts", "index.ts", "sink-wiring.ts"]);
  });

  it("leave the exit to the entries' one way of running: process.exit only in lifecycle.ts", () => {
    const exiting = sourceFiles(src)
      .filter((file) => /\bprocess\.exit\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(src, file).split(sep).join("/"));
    // The container's health check is a process of its own, a few lines long.
    expect(exiting.sort()).toEqual(["health/check.ts", "lifecycle.ts"]);
  });
});
