import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { dependabotProblems, type Update } from "./dependabot-rules.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// .github/dependabot.yml: a weekly pull request for each kind of dependency the add-on ships with,
// npm's packages, the image's Node base and the workflows' actions. GitHub reads the file only once
// it is pushed, and refuses it then over a wrong option: dependabot-rules.ts reads it here.

const config = parse(readText(".github/dependabot.yml")) as { version: number; updates: Update[] };
const entry = (ecosystem: string) =>
  config.updates.find((update) => update["package-ecosystem"] === ecosystem);

const scratch = mkdtempSync(join(tmpdir(), "dependabot-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(".github/dependabot.yml", () => {
  it("is one Dependabot accepts, and covers every package.json, Dockerfile and workflow of the project", () => {
    expect(dependabotProblems(config, repoRoot)).toEqual([]);
  });

  it.each([
    ["npm", "/"],
    ["docker", "/addon"],
    ["github-actions", "/"],
  ])("updates %s from %s every week", (ecosystem, directory) => {
    expect(entry(ecosystem)).toMatchObject({ directory, schedule: { interval: "weekly" } });
  });

  it("leaves the Node.js lines alone: the image's next major and @types/node's are decisions", () => {
    expect(entry("docker")?.ignore).toContainEqual({
      "dependency-name": "node",
      "update-types": ["version-update:semver-major"],
    });
    expect(entry("npm")?.ignore).toContainEqual({
      "dependency-name": "@types/node",
      "update-types": ["version-update:semver-major"],
    });
  });

  it("would be refused, or leave files unwatched, if it were wrong (the checks can fail)", () => {
    const broken = {
      version: 1,
      updates: [
        {
          "package-ecosystem": "npm",
          directory: "/",
          schedule: { interval: "fortnightly" },
          reviewers: ["x"],
        },
        {
          "package-ecosystem": "docker",
          directory: "/nowhere",
          schedule: { interval: "weekly" },
          ignore: [{ "dependency-name": "nodejs", "update-types": ["major"] }],
        },
      ],
    };
    expect(dependabotProblems(broken, repoRoot)).toEqual([
      "version: must be 2",
      "updates[0].reviewers: unknown option",
      "updates[0].schedule.interval: one of daily, weekly, monthly, quarterly, semiannually, yearly, cron",
      "updates[1].directory: /nowhere does not exist",
      "updates[1].ignore: nodejs is no docker dependency of the project",
      "updates[1].ignore: update type major",
      "docker: addon/Dockerfile is in no entry's directory",
      "github-actions: .github/workflows/release.yml is in no entry's directory",
      "github-actions: .github/workflows/test.yml is in no entry's directory",
    ]);
  });

  it("sees a Dockerfile added elsewhere, which no entry would watch", () => {
    const project = join(scratch, "project");
    mkdirSync(join(project, "tools"), { recursive: true });
    for (const path of [".github", "addon", "package.json", "package-lock.json"])
      cpSync(join(repoRoot, path), join(project, path), { recursive: true });
    writeFileSync(join(project, "tools", "Dockerfile"), "FROM alpine:3.23\n");
    expect(dependabotProblems(config, project)).toEqual([
      "docker: tools/Dockerfile is in no entry's directory",
    ]);
  });
});
