// What Dependabot accepts in .github/dependabot.yml and what each ecosystem reads, written down here
// because a fresh clone cannot ask GitHub: from Dependabot's configuration reference (the options
// of `updates`, their values) and dependabot-core's file fetchers (which files a `directory` must
// hold). Encoded as data, one line per problem, as supervisor-rules.ts does for the manifest.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

/** The options an entry of `updates` may carry; Dependabot refuses the file over any other. */
const UPDATE_KEYS = new Set([
  "package-ecosystem",
  "directory",
  "directories",
  "schedule",
  "allow",
  "ignore",
  "groups",
  "versioning-strategy",
  "open-pull-requests-limit",
  "labels",
  "assignees",
  "milestone",
  "commit-message",
  "rebase-strategy",
  "registries",
  "target-branch",
  "vendor",
  "insecure-external-code-execution",
  "pull-request-branch-name",
  "cooldown",
  "exclude-paths",
]);
const INTERVALS = ["daily", "weekly", "monthly", "quarterly", "semiannually", "yearly", "cron"];
const VERSIONING_STRATEGIES = ["auto", "increase", "increase-if-necessary", "lockfile-only", "widen"];
const IGNORE_UPDATE_TYPES = [
  "version-update:semver-major",
  "version-update:semver-minor",
  "version-update:semver-patch",
];
const GROUP_UPDATE_TYPES = ["major", "minor", "patch"];
const GROUP_KEYS = new Set(["applies-to", "dependency-type", "patterns", "exclude-patterns", "update-types"]);

/** Folders of the working tree that are not the project's files (installs, outputs, caches). */
const NOT_SOURCES = new Set([".git", "node_modules", "dist", "coverage", "data", ".scratch", ".cache"]);

/** Every file below `root`, as paths from it with `/`, leaving out what is not the project's. */
export function projectFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return NOT_SOURCES.has(entry.name) ? [] : projectFiles(root, join(dir, entry.name));
    return entry.isFile() ? [relative(root, join(dir, entry.name)).split(sep).join("/")] : [];
  });
}

export interface Update {
  "package-ecosystem"?: unknown;
  directory?: unknown;
  schedule?: { interval?: unknown };
  ignore?: Array<{ "dependency-name"?: unknown; "update-types"?: unknown }>;
  groups?: Record<string, Record<string, unknown>>;
  "versioning-strategy"?: unknown;
  [key: string]: unknown;
}

/** The folder of an entry's `directory` (`/` is the repository's root), with `/` separators. */
const folderOf = (directory: unknown) => posix.normalize(`.${String(directory)}`).replace(/\/$/, "");

/** The files of the project each ecosystem reads, from the folder of an entry's `directory`. */
export const ECOSYSTEMS: Record<string, (files: string[]) => string[]> = {
  // package.json and its lock, in the entry's folder.
  npm: (files) => files.filter((file) => posix.basename(file) === "package.json"),
  // dependabot-core's docker fetcher takes the folder's files whose name holds "dockerfile".
  docker: (files) =>
    files.filter((file) => /dockerfile/i.test(posix.basename(file)) && !file.endsWith(".dockerignore")),
  // The workflows under .github/workflows/, found from the root's "/".
  "github-actions": (files) => files.filter((file) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(file)),
};

/** The names an ecosystem's `ignore` may name: the dependencies it finds in the project's files. */
export function dependencyNames(root: string, ecosystem: string, files: string[]): string[] {
  const read = (file: string) => readFileSync(join(root, file), "utf8");
  const found = ECOSYSTEMS[ecosystem]?.(files) ?? [];
  if (ecosystem === "npm")
    return found.flatMap((file) => {
      const pkg = JSON.parse(read(file)) as Record<string, Record<string, string> | undefined>;
      return ["dependencies", "devDependencies", "optionalDependencies"].flatMap((key) =>
        Object.keys(pkg[key] ?? {}),
      );
    });
  // An image's name in FROM (node in node:26.13-alpine3.23), an action's in uses (owner/repo/path).
  const name = ecosystem === "docker" ? /^FROM\s+(?:--\S+\s+)*([^\s:@]+)/gim : /uses:\s*([^@\s]+)@/g;
  return found.flatMap((file) => [...read(file).matchAll(name)].map((m) => m[1] as string));
}

/**
 * The configuration read against Dependabot's rules and this project's files: one line per
 * problem, none for a file Dependabot accepts and that covers every file of its ecosystems.
 */
export function dependabotProblems(config: unknown, root: string): string[] {
  if (typeof config !== "object" || config === null) return ["dependabot.yml: not a mapping"];
  const { version, updates } = config as { version?: unknown; updates?: unknown };
  const problems: string[] = [];
  if (version !== 2) problems.push("version: must be 2");
  if (!Array.isArray(updates) || updates.length === 0) return [...problems, "updates: a non-empty list"];
  const files = projectFiles(root);
  for (const [index, update] of (updates as Update[]).entries()) {
    const at = `updates[${index}]`;
    const ecosystem = String(update["package-ecosystem"]);
    for (const key of Object.keys(update))
      if (!UPDATE_KEYS.has(key)) problems.push(`${at}.${key}: unknown option`);
    if (!(ecosystem in ECOSYSTEMS))
      problems.push(`${at}.package-ecosystem: ${ecosystem} is not one of this project's`);
    if (typeof update.directory !== "string" || !update.directory.startsWith("/"))
      problems.push(`${at}.directory: a path from the repository's root, beginning with /`);
    else if (!existsSync(join(root, folderOf(update.directory))))
      problems.push(`${at}.directory: ${update.directory} does not exist`);
    if (!INTERVALS.includes(String(update.schedule?.interval)))
      problems.push(`${at}.schedule.interval: one of ${INTERVALS.join(", ")}`);
    if (
      update["versioning-strategy"] !== undefined &&
      !VERSIONING_STRATEGIES.includes(String(update["versioning-strategy"]))
    )
      problems.push(`${at}.versioning-strategy: ${String(update["versioning-strategy"])} is not one`);
    const names = ecosystem in ECOSYSTEMS ? dependencyNames(root, ecosystem, files) : [];
    for (const rule of update.ignore ?? []) {
      if (!names.includes(String(rule["dependency-name"])))
        problems.push(
          `${at}.ignore: ${String(rule["dependency-name"])} is no ${ecosystem} dependency of the project`,
        );
      for (const type of (rule["update-types"] as unknown[] | undefined) ?? [])
        if (!IGNORE_UPDATE_TYPES.includes(String(type)))
          problems.push(`${at}.ignore: update type ${String(type)}`);
    }
    for (const [name, group] of Object.entries(update.groups ?? {})) {
      for (const key of Object.keys(group))
        if (!GROUP_KEYS.has(key)) problems.push(`${at}.groups.${name}.${key}: unknown`);
      for (const type of (group["update-types"] as unknown[] | undefined) ?? [])
        if (!GROUP_UPDATE_TYPES.includes(String(type)))
          problems.push(`${at}.groups.${name}: update type ${String(type)}`);
    }
  }
  // Every file an ecosystem reads is in the folder of an entry of that ecosystem, each folder once:
  // a new Dockerfile or package elsewhere would otherwise go unwatched.
  for (const [ecosystem, reads] of Object.entries(ECOSYSTEMS)) {
    const folders = (updates as Update[])
      .filter((update) => update["package-ecosystem"] === ecosystem)
      .map((update) => folderOf(update.directory));
    if (new Set(folders).size !== folders.length) problems.push(`${ecosystem}: a directory named twice`);
    for (const file of reads(files)) {
      const folder = ecosystem === "github-actions" ? "." : posix.dirname(file);
      if (!folders.includes(folder)) problems.push(`${ecosystem}: ${file} is in no entry's directory`);
    }
    if (ecosystem === "npm")
      for (const folder of folders)
        if (!existsSync(join(root, folder, "package-lock.json")))
          problems.push(`npm: no package-lock.json in ${folder}`);
  }
  return problems;
}
