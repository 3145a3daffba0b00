// `npm run addon:bundle -- [--out DIR] [--url URL] [--maintainer NAME] [--published-images]`
//
// Assembles a ready add-on repository: repository.yaml at its root and reward_facts/ holding the
// manifest, the presentation files (the Supervisor reads them only from the manifest's folder) and
// the sources the Dockerfile builds from, at the same paths as in the repository, so that one
// Dockerfile works with either folder as its build context.
//
// By default the bundled manifest has no `image:`, so the Supervisor builds the Dockerfile: a bundle
// made by hand never names an image that may not exist. The release workflow
// (.github/workflows/release.yml) passes --published-images once it has pushed the images that
// config.yaml's `image:` names.
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseDocument, stringify } from "yaml";
import { EXIT_USAGE, usageLine } from "../cli-usage.js";

export const ADDON_SLUG = "reward_facts";
export const DEFAULT_OUT = "dist/addon-repository";
export const MANIFEST = "config.yaml";
const ADDON_DIR = "addon";

/** What the Dockerfile copies from its build context; each keeps its repository path. */
export const BUILD_INPUTS = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "src",
  "addon/entrypoint.sh",
];

/**
 * Files of addon/ the add-on cannot do without; every file of addon/ is bundled. README.md is the
 * store's introduction: the Supervisor reads it beside the manifest, as it does DOCS.md.
 */
export const REQUIRED_ADDON_FILES = [
  "Dockerfile",
  "README.md",
  "DOCS.md",
  "CHANGELOG.md",
  "apparmor.txt",
  "icon.png",
  "logo.png",
  "translations/en.yaml",
];

export interface BundleOptions {
  out: string;
  /** The published repository's address, for repository.yaml. */
  url?: string;
  maintainer?: string;
  /**
   * Keep config.yaml's `image:`, so that the Supervisor pulls the published images; only once they
   * are published (the release workflow). Otherwise `image:` is dropped and the Supervisor builds.
   */
  publishedImages?: boolean;
}

/** One file of the bundle: `to` is relative to the output folder, with `/` separators. */
export type BundleEntry = { to: string; from: string } | { to: string; content: string };

export class BundleError extends Error {
  override name = "BundleError";
}

/** The Supervisor globs `**\/config.*` and takes each match for an add-on manifest. */
export class StrayConfigError extends BundleError {
  override name = "StrayConfigError";
  readonly paths: readonly string[];

  constructor(paths: readonly string[]) {
    super(
      `the Supervisor would take these for add-on manifests; rename them: ${paths.join(", ")} ` +
        `(only ${ADDON_SLUG}/${MANIFEST} may be named config.*)`,
    );
    this.paths = paths;
  }
}

export class UsageError extends BundleError {
  override name = "UsageError";
}

const toPosix = (path: string) => path.split(sep).join("/");

/** Every file below `dir`, as paths relative to `root`. */
async function filesBelow(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesBelow(root, path)));
    else if (entry.isFile()) found.push(toPosix(path));
  }
  return found.sort();
}

/** A build input: one file, or every file of a folder. */
async function filesOf(root: string, path: string): Promise<string[]> {
  const found = await stat(join(root, path)).catch(() => null);
  if (!found) throw new BundleError(`${path} is missing`);
  return found.isDirectory() ? filesBelow(root, path) : [path];
}

export function repositoryManifest(options: Pick<BundleOptions, "url" | "maintainer">): string {
  return stringify({
    name: "Reward Facts",
    ...(options.url ? { url: options.url } : {}),
    ...(options.maintainer ? { maintainer: options.maintainer } : {}),
  });
}

/** The manifest as bundled: without `image:` for a local build (comments kept), or unchanged. */
export function addonManifest(text: string, publishedImages: boolean): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new BundleError(`${MANIFEST}: ${doc.errors[0]?.message}`);
  if (publishedImages) {
    if (!doc.has("image")) throw new BundleError(`${MANIFEST} names no image to publish`);
    return text;
  }
  doc.delete("image");
  return doc.toString({ lineWidth: 0 });
}

/** The manifest's version must be the package's: the Supervisor offers updates by it. */
async function checkVersions(root: string, manifest: string): Promise<void> {
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version?: unknown };
  const version = (parseDocument(manifest).toJS() as { version?: unknown } | null)?.version;
  if (version !== pkg.version)
    throw new BundleError(`${MANIFEST} has version ${String(version)}, package.json ${String(pkg.version)}`);
}

/** Everything the bundle will hold, read from the project at `root`. */
export async function planBundle(root: string, options: BundleOptions): Promise<BundleEntry[]> {
  if (!existsSync(join(root, MANIFEST))) throw new BundleError(`${MANIFEST} is missing`);
  const manifest = await readFile(join(root, MANIFEST), "utf8");
  await checkVersions(root, manifest);
  const inAddon = (path: string) => `${ADDON_SLUG}/${path}`;
  const entries: BundleEntry[] = [
    { to: "repository.yaml", content: repositoryManifest(options) },
    { to: inAddon(MANIFEST), content: addonManifest(manifest, options.publishedImages ?? false) },
  ];

  const presentation = (await filesBelow(root, ADDON_DIR)).filter((path) => !BUILD_INPUTS.includes(path));
  for (const required of REQUIRED_ADDON_FILES) {
    if (!presentation.includes(`${ADDON_DIR}/${required}`))
      throw new BundleError(`${ADDON_DIR}/${required} is missing`);
  }
  for (const path of presentation) {
    entries.push({ from: join(root, path), to: inAddon(path.slice(ADDON_DIR.length + 1)) });
  }
  for (const input of BUILD_INPUTS) {
    for (const path of await filesOf(root, input))
      entries.push({ from: join(root, path), to: inAddon(path) });
  }
  return entries;
}

/** Bundle paths named `config.*` other than the manifest. */
export function strayConfigs(entries: readonly BundleEntry[]): string[] {
  return entries
    .map((entry) => entry.to)
    .filter((path) => /^config\./.test(path.slice(path.lastIndexOf("/") + 1)))
    .filter((path) => path !== `${ADDON_SLUG}/${MANIFEST}`);
}

/**
 * Empties `out` before writing, so refuses anything that does not look like a previous bundle: a
 * folder with other content, or one that holds the sources being bundled.
 */
async function prepareOutput(root: string, out: string): Promise<void> {
  const fromRoot = relative(root, out);
  const [top = ""] = toPosix(fromRoot).split("/");
  const inside = !fromRoot.startsWith("..") && !isAbsolute(fromRoot);
  if (fromRoot === "" || (inside && [ADDON_DIR, ...BUILD_INPUTS].includes(top)))
    throw new BundleError(`refusing to write the bundle into ${out}: it holds the sources`);
  if (existsSync(out)) {
    const present = await readdir(out);
    if (present.length > 0 && !present.includes("repository.yaml"))
      throw new BundleError(`refusing to empty ${out}: it is not empty and holds no previous bundle`);
    await rm(out, { recursive: true, force: true });
  }
}

/** Writes the add-on repository to `options.out`; throws StrayConfigError before writing anything. */
export async function bundleAddon(root: string, options: BundleOptions): Promise<BundleEntry[]> {
  const out = resolve(root, options.out);
  const entries = await planBundle(root, options);
  const strays = strayConfigs(entries);
  if (strays.length > 0) throw new StrayConfigError(strays);
  await prepareOutput(root, out);
  for (const entry of entries) {
    const target = join(out, ...entry.to.split("/"));
    await mkdir(dirname(target), { recursive: true });
    if ("content" in entry) await writeFile(target, entry.content);
    else await copyFile(entry.from, target);
  }
  return entries;
}

export function parseCliArgs(argv: readonly string[]): BundleOptions {
  let values: {
    out?: string;
    url?: string;
    maintainer?: string;
    "local-build"?: boolean;
    "published-images"?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        out: { type: "string" },
        url: { type: "string" },
        maintainer: { type: "string" },
        // The default, still accepted as the earlier README spelt it.
        "local-build": { type: "boolean" },
        "published-images": { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.url !== undefined && !/^https?:\/\/[^/\s]+/.test(values.url))
    throw new UsageError(`--url must be an http(s) address, got ${values.url}`);
  if (values.out !== undefined && values.out.trim() === "") throw new UsageError("--out must not be empty");
  if (values["local-build"] && values["published-images"])
    throw new UsageError("--local-build and --published-images contradict each other");
  return {
    out: values.out ?? DEFAULT_OUT,
    ...(values.url ? { url: values.url } : {}),
    ...(values.maintainer ? { maintainer: values.maintainer } : {}),
    publishedImages: values["published-images"] ?? false,
  };
}

const USAGE = `usage: npm run addon:bundle -- [--out DIR] [--url URL] [--maintainer NAME] [--published-images]

Writes a ready add-on repository (repository.yaml and ${ADDON_SLUG}/) to DIR (default ${DEFAULT_OUT}).
The Supervisor builds the add-on from its Dockerfile on your machine: the manifest names no image.

  --out DIR           where to write it; emptied first if it holds an earlier bundle
  --url URL           the published repository's address, for repository.yaml
  --maintainer NAME   its maintainer, for repository.yaml
  --published-images  keep config.yaml's image: line, so that the Supervisor pulls the images
                      instead of building; only for images already published (the release
                      workflow passes it)
  --local-build       the default, spelt out: no image: line
  --help              this text`;

export interface CliIo {
  root: string;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** The command: its exit code, never process.exit (1: cannot bundle, 2: bad arguments). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const options = parseCliArgs(argv);
    const entries = await bundleAddon(io.root, options);
    io.stdout(`${entries.length} files written to ${resolve(io.root, options.out)}`);
    if (!options.url || !options.maintainer)
      io.stdout("repository.yaml names no url or maintainer: pass --url and --maintainer before publishing");
    io.stdout(
      options.publishedImages
        ? `${ADDON_SLUG}/${MANIFEST} names the published images: the Supervisor will pull them`
        : `${ADDON_SLUG}/${MANIFEST} has no image: the Supervisor will build it`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    if (error instanceof UsageError) {
      io.stderr(usageLine("npm run addon:bundle", error.message));
      return EXIT_USAGE;
    }
    io.stderr(`addon:bundle: ${error.message}`);
    return 1;
  }
}

/** The project's root: the nearest folder above this file with both package.json and the manifest. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!(existsSync(join(dir, "package.json")) && existsSync(join(dir, MANIFEST)))) {
    const parent = dirname(dir);
    if (parent === dir) throw new BundleError(`no ${MANIFEST} beside a package.json above this script`);
    dir = parent;
  }
  return dir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const stderr = (line: string) => process.stderr.write(`${line}\n`);
  Promise.resolve()
    .then(() =>
      main(process.argv.slice(2), {
        root: projectRoot(),
        stdout: (line) => process.stdout.write(`${line}\n`),
        stderr,
      }),
    )
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        stderr(`addon:bundle: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      },
    );
}
