import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./supervisor-rules.js";

// The Supervisor globs `**/config.*` below a repository and takes every match for an add-on
// manifest, so the add-on's config.yaml must be the only file of that name in the project.

const isConfigName = (path: string) => /^config\./.test(path.slice(path.lastIndexOf("/") + 1));

/** Tracked files plus untracked ones git does not ignore: what a commit could carry. */
function projectFiles(): string[] {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return out.split("\0").filter(Boolean);
  } catch {
    // Not a git checkout (an unpacked archive): every file but the usual ignored folders.
    return walk(repoRoot).map((path) => relative(repoRoot, path).split("\\").join("/"));
  }
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", ".git", "dist", "data"].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

describe("file names", () => {
  it("has no file named config.* but the add-on's manifest", () => {
    expect(projectFiles().filter(isConfigName)).toEqual(["config.yaml"]);
  });

  it("recognises the names the Supervisor would take", () => {
    expect(["config.json", "src/x/config.yml", "a/config.yaml"].every(isConfigName)).toBe(true);
    expect(["vitest.config.ts", "src/config/load-config.ts", "configs.yaml"].some(isConfigName)).toBe(false);
  });
});
