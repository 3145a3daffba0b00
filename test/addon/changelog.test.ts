import { describe, expect, it } from "vitest";
import { packageVersion, readManifest, readText } from "./supervisor-rules.js";

// The Supervisor offers an update when config.yaml's version changes and shows CHANGELOG.md beside
// it: the top section must be the release being offered, in Keep a Changelog's shape.

const changelog = readText("addon/CHANGELOG.md");

/** Keep a Changelog 1.1.0's kinds of change, the only subsections a release has. */
const KINDS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];
const RELEASE = /^## \[(\d+\.\d+\.\d+)\](?: - (\d{4}-\d{2}-\d{2}))?$/;
/** Keep a Changelog's section for what is not released yet: first, when there is one. */
const UNRELEASED = "## [Unreleased]";

const headings = [...changelog.matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => ({
  level: (m[1] as string).length,
  text: m[0],
  title: m[2] as string,
}));
const releases = headings
  .filter((h) => h.level === 2 && h.text !== UNRELEASED)
  .map((h) => h.text.match(RELEASE));

const isRealDate = (date: string) => new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
const asNumbers = (version: string) => version.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [asNumbers(a), asNumbers(b)];
  const i = x.findIndex((part, index) => part !== y[index]);
  return i >= 0 && (x[i] as number) > (y[i] as number);
};

describe("addon/CHANGELOG.md", () => {
  it("opens with the version config.yaml and package.json carry, and its date", () => {
    const [top] = releases;
    expect(top, "the first ## heading reads [x.y.z] - YYYY-MM-DD").toBeTruthy();
    expect(top?.[1]).toBe(readManifest().version);
    expect(top?.[1]).toBe(packageVersion());
    expect(top?.[2], "the top release's date").toBeDefined();
    expect(isRealDate(top?.[2] ?? ""), top?.[2]).toBe(true);
  });

  it("uses only Keep a Changelog's headings: a title, Unreleased first if any, releases, the six kinds of change", () => {
    expect(headings.filter((h) => h.level === 1).map((h) => h.title)).toEqual(["Changelog"]);
    const sections = headings.filter((h) => h.level === 2).map((h) => h.text);
    expect(sections.filter((text) => !RELEASE.test(text) && text !== UNRELEASED)).toEqual([]);
    expect(sections.indexOf(UNRELEASED)).toBeLessThanOrEqual(0);
    expect(headings.filter((h) => h.level === 3 && !KINDS.includes(h.title)).map((h) => h.text)).toEqual([]);
    expect(headings.filter((h) => h.level > 3).map((h) => h.text)).toEqual([]);
  });

  it("dates every release and lists them newest first, each once", () => {
    const versions = releases.map((release) => release?.[1] as string);
    for (const release of releases) expect(isRealDate(release?.[2] ?? ""), release?.[0]).toBe(true);
    for (let i = 1; i < versions.length; i++)
      expect(
        newer(versions[i - 1] as string, versions[i] as string),
        `${versions[i - 1]} > ${versions[i]}`,
      ).toBe(true);
  });
});
