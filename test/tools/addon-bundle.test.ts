import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundleAddon, main, StrayConfigError } from "../../src/tools/addon-bundle.js";
import {
  manifestProblems,
  packageVersion,
  readText,
  repoRoot,
  repositoryProblems,
} from "../addon/supervisor-rules.js";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "addon-bundle-"));
const out = join(scratch, "repository");
const addon = join(out, "reward_facts");

/** Every file below dir, relative to it, with `/` separators. */
function filesBelow(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesBelow(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** The sources of each `COPY` from the build context (not from another stage). */
function contextCopies(dockerfile: string): string[] {
  return dockerfile
    .split("\n")
    .filter((line) => /^COPY\s/.test(line) && !line.includes("--from="))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1));
}

function collect() {
  const lines = { out: [] as string[], err: [] as string[] };
  const io = {
    stdout: (line: string) => lines.out.push(line),
    stderr: (line: string) => lines.err.push(line),
  };
  return { lines, io };
}

/** A project with the real add-on files and a tiny src/ that can be spoiled. */
function fixtureProject(name: string): string {
  const root = join(scratch, name);
  mkdirSync(join(root, "src"), { recursive: true });
  for (const file of ["config.yaml", "package.json", "package-lock.json", "tsconfig.json"])
    cpSync(join(repoRoot, file), join(root, file));
  cpSync(join(repoRoot, "addon"), join(root, "addon"), { recursive: true });
  writeFileSync(join(root, "src", "main.ts"), "export {};\n");
  return root;
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the add-on repository bundle", () => {
  beforeAll(async () => {
    await bundleAddon(repoRoot, {
      out,
      url: "https://git.example.org/family/reward-facts-addons",
      maintainer: "The Example family",
      publishedImages: true,
    });
  });

  it("is a custom repository: repository.yaml with name, url and maintainer", () => {
    const repository = parse(readFileSync(join(out, "repository.yaml"), "utf8")) as Record<string, unknown>;
    expect(repository).toEqual({
      name: "Reward Facts",
      url: "https://git.example.org/family/reward-facts-addons",
      maintainer: "The Example family",
    });
  });

  it("holds one add-on folder", () => {
    expect(readdirSync(out).sort()).toEqual(["repository.yaml", "reward_facts"]);
  });

  it.each([
    "config.yaml",
    "Dockerfile",
    "README.md",
    "DOCS.md",
    "CHANGELOG.md",
    "translations/en.yaml",
    "translations/fr.yaml",
    "apparmor.txt",
    "icon.png",
    "logo.png",
    "blueprints/automation/reward_facts/session_ending_warning.yaml",
    "blueprints/automation/reward_facts/session_over.yaml",
    "blueprints/automation/reward_facts/traffic_light.yaml",
    "blueprints/automation/reward_facts/celebrate.yaml",
    "blueprints/automation/reward_facts/validate_in_app.yaml",
    "blueprints/automation/reward_facts/minutes_low.yaml",
    "blueprints/automation/reward_facts_fr/validate_in_app.yaml",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "src/main.ts",
    "src/health/check.ts",
  ])("has %s beside the manifest", (file) => {
    expect(existsSync(join(addon, file))).toBe(true);
  });

  it("puts the store's introduction beside the manifest: addon/README.md, not the project's README", () => {
    // The Supervisor shows README.md of the manifest's folder as the app's introduction in the store.
    expect(readFileSync(join(addon, "README.md"), "utf8")).toBe(readText("addon/README.md"));
  });

  it("copies the manifest as it is for published images, with the package's version", () => {
    const text = readFileSync(join(addon, "config.yaml"), "utf8");
    expect(text).toBe(readText("config.yaml"));
    expect((parse(text) as { version: string }).version).toBe(packageVersion());
  });

  it("copies every source file and nothing else of the project", () => {
    const files = filesBelow(addon);
    expect(files.filter((file) => file.startsWith("src/")).sort()).toEqual(
      filesBelow(join(repoRoot, "src"), "src/").sort(),
    );
    for (const file of files) expect(file, file).not.toMatch(/^(test|node_modules|dist|data|\.git)\//);
  });

  it("has a single file named config.*", () => {
    const configs = filesBelow(out).filter((file) => /(^|\/)config\.[^/]*$/.test(file));
    expect(configs).toEqual(["reward_facts/config.yaml"]);
  });

  it("is a build context for its Dockerfile: everything it copies is there", () => {
    const copies = contextCopies(readFileSync(join(addon, "Dockerfile"), "utf8"));
    expect(copies.length).toBeGreaterThan(3);
    for (const source of copies) expect(existsSync(join(addon, source)), source).toBe(true);
  });

  it("is by default for a local build, which drops the image so the Supervisor builds", async () => {
    const local = join(scratch, "local");
    await bundleAddon(repoRoot, { out: local });
    const bundled = parse(readFileSync(join(local, "reward_facts", "config.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    const { image, ...rest } = parse(readText("config.yaml")) as Record<string, unknown>;
    expect(image).toBeDefined();
    expect(bundled).toEqual(rest);
    expect(parse(readFileSync(join(local, "repository.yaml"), "utf8"))).toEqual({ name: "Reward Facts" });
  });

  it("replaces a previous bundle", async () => {
    writeFileSync(join(out, "leftover.txt"), "old");
    const { io } = collect();
    expect(await main(["--out", out], { root: repoRoot, ...io })).toBe(0);
    expect(existsSync(join(out, "leftover.txt"))).toBe(false);
  });
});

describe("the bundler's refusals", () => {
  it.each([
    ["src/stray/config.json", "a source file"],
    ["addon/translations/config.yml", "an add-on file"],
  ])("refuses a stray %s (%s) and writes nothing", async (stray) => {
    const root = fixtureProject(`stray-${stray.replace(/\W/g, "_")}`);
    mkdirSync(join(root, stray, ".."), { recursive: true });
    writeFileSync(join(root, stray), "{}\n");
    const target = join(root, "dist", "bundle");

    const error = await bundleAddon(root, { out: target }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrayConfigError);
    expect((error as StrayConfigError).paths).toEqual([`reward_facts/${stray.replace(/^addon\//, "")}`]);
    expect(existsSync(target)).toBe(false);

    const { lines, io } = collect();
    expect(await main(["--out", target], { root, ...io })).toBe(1);
    expect(lines.err.join("\n")).toContain("config.");
  });

  it("bundles the same fixture once the stray file is gone", async () => {
    const root = fixtureProject("clean");
    const { io } = collect();
    expect(await main(["--out", join(root, "dist", "bundle")], { root, ...io })).toBe(0);
  });

  it("refuses a project without the store's introduction (addon/README.md)", async () => {
    const root = fixtureProject("no-introduction");
    rmSync(join(root, "addon", "README.md"));
    const { lines, io } = collect();
    expect(await main(["--out", join(root, "dist", "bundle")], { root, ...io })).toBe(1);
    expect(lines.err).toEqual(["addon:bundle: addon/README.md is missing"]);
  });

  it("refuses a manifest whose version is not the package's", async () => {
    const root = fixtureProject("version");
    writeFileSync(
      join(root, "config.yaml"),
      readText("config.yaml").replace(/^version: .*$/m, 'version: "9.9.9"'),
    );
    const { lines, io } = collect();
    expect(await main([], { root, ...io })).toBe(1);
    expect(lines.err.join("\n")).toContain("9.9.9");
  });

  it("refuses to empty a folder that holds no previous bundle", async () => {
    const root = fixtureProject("occupied");
    const target = join(root, "somewhere");
    mkdirSync(target);
    writeFileSync(join(target, "precious.txt"), "keep me");
    const { io } = collect();
    expect(await main(["--out", target], { root, ...io })).toBe(1);
    expect(readFileSync(join(target, "precious.txt"), "utf8")).toBe("keep me");
  });

  it("refuses to write into the sources", async () => {
    const root = fixtureProject("into-src");
    const { io } = collect();
    expect(await main(["--out", "src/bundle"], { root, ...io })).toBe(1);
    expect(existsSync(join(root, "src", "bundle"))).toBe(false);
  });

  it.each([
    [["--outt", "x"], "--outt"],
    [["--url", "example"], "--url"],
    [["--out"], "--out"],
    [["--out", ""], "--out"],
    [["extra"], "extra"],
    [["--local-build", "--published-images"], "contradict"],
  ])("refuses %j with exit code 2 and one line", async (args, named) => {
    const { lines, io } = collect();
    expect(await main(args, { root: repoRoot, ...io })).toBe(2);
    expect(lines.err).toHaveLength(1);
    expect(lines.err[0]).toMatch(/^npm run addon:bundle: /);
    expect(lines.err[0]).toContain(named);
    expect(lines.err[0]).toContain("--help");
  });

  it("answers --help with its usage and exit code 0, writing nothing", async () => {
    const root = fixtureProject("help");
    const { lines, io } = collect();
    expect(await main(["--out", "out", "--help"], { root, ...io })).toBe(0);
    expect(lines.out.join("\n")).toMatch(/^usage: npm run addon:bundle -- \[--out DIR\]/);
    expect(existsSync(join(root, "out"))).toBe(false);
  });

  it("runs as a command and reports its exit code", async () => {
    const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
    const script = join(repoRoot, "src", "tools", "addon-bundle.ts");
    const ok = await run(tsx, [script, "--out", join(scratch, "cli")], { cwd: repoRoot });
    expect(ok.stdout).toMatch(/\d+ files written to /);
    const failed = await run(tsx, [script, "--nope"], { cwd: repoRoot }).catch((e: { code?: number }) => e);
    expect((failed as { code?: number }).code).toBe(2);
  }, 60_000);
});

describe("the bundle README tells users to make", () => {
  // The command as README's add-on section writes it, flags and all.
  const command = /^(?:npm ci && )?npm run addon:bundle(?: -- (.+))?$/m.exec(readText("README.md"));
  const args = command?.[1]?.split(/\s+/) ?? [];
  const made = join(scratch, "as-readme-says");

  beforeAll(async () => {
    const { lines, io } = collect();
    expect(await main([...args, "--out", made], { root: repoRoot, ...io }), lines.err.join("\n")).toBe(0);
  });

  it("is found in README", () => {
    expect(command).not.toBeNull();
  });

  it("is a repository the Supervisor accepts (repository.yaml)", () => {
    expect(repositoryProblems(parse(readFileSync(join(made, "repository.yaml"), "utf8")))).toEqual([]);
  });

  it("holds an add-on the Supervisor accepts, which it builds from the Dockerfile beside it", () => {
    const manifest = parse(readFileSync(join(made, "reward_facts", "config.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(manifestProblems(manifest)).toEqual([]);
    // No image: nothing names an image that may not be published; the Supervisor builds instead.
    expect(manifest).not.toHaveProperty("image");
    expect(existsSync(join(made, "reward_facts", "Dockerfile"))).toBe(true);
  });

  it("would be refused if the Supervisor's rules were broken (the checks can fail)", () => {
    expect(repositoryProblems({ url: "not a url" })).toEqual([
      "name: required, a string",
      "url: must be a URL",
    ]);
    const manifest = parse(readFileSync(join(made, "reward_facts", "config.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(
      manifestProblems({ ...manifest, slug: "reward facts", arch: ["sparc"], image: "x:1", boot: "auto" }),
    ).toEqual([
      "slug: reward facts is not a slug",
      "arch: unknown architecture sparc",
      "boot: spelt out at its default value",
      "image: x:1 is not an image name without a tag",
    ]);
  });
});

describe("the bundle the release workflow makes (--published-images)", () => {
  it("keeps the images config.yaml names, and the Supervisor accepts it", async () => {
    const published = join(scratch, "published");
    const { io } = collect();
    const args = [
      "--published-images",
      "--url",
      "https://github.com/reward-facts/bridge",
      "--maintainer",
      "x",
    ];
    expect(await main([...args, "--out", published], { root: repoRoot, ...io })).toBe(0);
    const manifest = parse(readFileSync(join(published, "reward_facts", "config.yaml"), "utf8"));
    expect(manifestProblems(manifest)).toEqual([]);
    expect(manifest).toHaveProperty("image", (parse(readText("config.yaml")) as { image: string }).image);
    expect(repositoryProblems(parse(readFileSync(join(published, "repository.yaml"), "utf8")))).toEqual([]);
  });
});
