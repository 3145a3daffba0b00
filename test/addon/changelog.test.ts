import { describe, expect, it } from "vitest";
import { releaseNotes } from "./release-notes.js";
import { packageVersion, readManifest, readText } from "./supervisor-rules.js";

// The Supervisor offers an update when config.yaml's version changes, and Home Assistant's update
// dialog shows the part of CHANGELOG.md since the installed version, found by its headings
// (release-notes.ts): a release's heading must be its version alone, its date on the line below.
// Above the releases, an Unreleased section that the next fixes go into.

const changelog = readText("addon/CHANGELOG.md");
const lines = changelog.split("\n");

/** Keep a Changelog 1.1.0's kinds of change, after what to know before updating (first). */
const UPGRADE_NOTES = "Upgrade notes";
const KINDS = [UPGRADE_NOTES, "Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];
const RELEASE = /^## (\d+\.\d+\.\d+)$/;
const DATE_LINE = /^_(\d{4}-\d{2}-\d{2})_$/;
const UNRELEASED = "## Unreleased";

const headings = lines.flatMap((line, index) => {
  const m = /^(#{1,6}) (.+)$/.exec(line);
  return m ? [{ level: (m[1] as string).length, text: line, title: m[2] as string, index }] : [];
});
/** Where the section of the heading at line `index` ends: the next heading of its level or above. */
const endOf = (index: number, level: number) =>
  headings.find((next) => next.level <= level && next.index > index)?.index ?? lines.length;
const releases = headings
  .filter((h) => h.level === 2 && h.text !== UNRELEASED)
  .map((h) => ({
    heading: h.text,
    version: RELEASE.exec(h.text)?.[1],
    date: DATE_LINE.exec(lines[h.index + 1] ?? "")?.[1],
    /** The release's own text, its heading included, down to the next release's heading. */
    section: lines
      .slice(h.index, endOf(h.index, 2))
      .map((line) => `${line}\n`)
      .join(""),
    kinds: headings
      .filter((k) => k.level === 3 && k.index > h.index && k.index < endOf(h.index, 2))
      .map((k) => k.title),
  }));

const isRealDate = (date: string) => new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
const asNumbers = (version: string) => version.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [asNumbers(a), asNumbers(b)];
  const i = x.findIndex((part, index) => part !== y[index]);
  return i >= 0 && (x[i] as number) > (y[i] as number);
};

describe("addon/CHANGELOG.md", () => {
  it("opens its releases with the version config.yaml and package.json carry, and its date", () => {
    const [top] = releases;
    expect(top?.heading).toBe(`## ${readManifest().version}`);
    expect(top?.version).toBe(packageVersion());
    expect(top?.date, "the line below the top release's heading: _YYYY-MM-DD_").toBeDefined();
    expect(isRealDate(top?.date ?? ""), top?.date).toBe(true);
  });

  it("heads each release with its version alone, the date on the line below, each a real date", () => {
    for (const release of releases) {
      expect(release.heading, "a heading Home Assistant finds: the version alone").toMatch(RELEASE);
      expect(release.date, `${release.heading}: the next line reads _YYYY-MM-DD_`).toBeDefined();
      expect(isRealDate(release.date ?? ""), release.date).toBe(true);
    }
  });

  it("lists the releases newest first, each once, their dates never going forward", () => {
    for (let i = 1; i < releases.length; i++) {
      const [later, earlier] = [releases[i - 1], releases[i]];
      expect(
        newer(later?.version ?? "", earlier?.version ?? ""),
        `${later?.version} > ${earlier?.version}`,
      ).toBe(true);
      expect((later?.date ?? "") >= (earlier?.date ?? ""), `${later?.date} ≥ ${earlier?.date}`).toBe(true);
    }
  });

  it("has a title, then Unreleased (undated) above the releases, and only the kinds of change below them", () => {
    expect(headings.filter((h) => h.level === 1).map((h) => h.title)).toEqual(["Changelog"]);
    const sections = headings.filter((h) => h.level === 2);
    expect(sections[0]?.text).toBe(UNRELEASED);
    expect(sections.filter((h) => h.text === UNRELEASED)).toHaveLength(1);
    expect(lines[(sections[0]?.index ?? 0) + 1] ?? "").not.toMatch(DATE_LINE);
    expect(headings.filter((h) => h.level === 3 && !KINDS.includes(h.title)).map((h) => h.text)).toEqual([]);
    expect(headings.filter((h) => h.level > 3).map((h) => h.text)).toEqual([]);
  });

  it("puts a release's upgrade notes first, and has some for the release on offer", () => {
    for (const release of releases)
      if (release.kinds.includes(UPGRADE_NOTES))
        expect(release.kinds[0], release.heading).toBe(UPGRADE_NOTES);
    expect(releases[0]?.kinds[0]).toBe(UPGRADE_NOTES);
  });
});

describe("the releases an update must not cross by itself (config.yaml's breaking_versions)", () => {
  // From below one of them, the Supervisor offers the update but never installs it automatically
  // (App.auto_update_available): what it asks of a parent must be in its upgrade notes.
  const breaking = (readManifest().breaking_versions ?? []) as string[];

  it("names 0.3.0, which changed how the bridge publishes", () => {
    expect(breaking).toContain("0.3.0");
  });

  it.each(breaking)(
    "has %s released, with upgrade notes first, and not after the version on offer",
    (version) => {
      const release = releases.find((r) => r.version === version);
      expect(release, `## ${version} in the changelog`).toBeDefined();
      expect(release?.kinds[0]).toBe(UPGRADE_NOTES);
      expect(newer(version, readManifest().version as string)).toBe(false);
    },
  );
});

describe("what Home Assistant's update dialog shows of it (core's rule, release-notes.ts)", () => {
  const [offered, installed] = releases;
  const latest = readManifest().version as string;

  it(`shows, for an update from ${installed?.version} to ${latest}, the notes since ${installed?.version} and nothing else`, () => {
    const notes = releaseNotes(changelog, latest, installed?.version as string);
    expect(notes, "not the whole file: the offered version's heading was found").not.toBe(changelog);
    expect(notes).toBe(offered?.section);
    expect(notes).not.toContain(installed?.heading);
    expect(notes).not.toContain(UNRELEASED);
  });

  it("shows each release's own notes for an update from the one before it", () => {
    for (let i = 1; i < releases.length; i++) {
      const [later, earlier] = [releases[i - 1], releases[i]];
      expect(releaseNotes(changelog, later?.version ?? "", earlier?.version ?? "")).toBe(later?.section);
    }
  });

  it("shows every release crossed by an update that skips some, down to the installed one", () => {
    const oldest = releases.at(-1);
    expect(releaseNotes(changelog, offered?.version ?? "", oldest?.version ?? "")).toBe(
      releases
        .slice(0, -1)
        .map((release) => release.section)
        .join(""),
    );
  });

  it("is core's rule: a Keep a Changelog heading, the version in brackets and dated, is not found, so the whole file shows", () => {
    const keepAChangelog =
      "# Changelog\n\n## [0.4.0] - 2026-11-29\n\n- New.\n\n## [0.3.0] - 2026-11-28\n\n- Old.\n";
    expect(releaseNotes(keepAChangelog, "0.4.0", "0.3.0")).toBe(keepAChangelog);
    const trimmed = "# Changelog\n\n## 0.4.0\n_2026-11-29_\n\n- New.\n\n## 0.3.0\n_2026-11-28_\n\n- Old.\n";
    expect(releaseNotes(trimmed, "0.4.0", "0.3.0")).toBe("## 0.4.0\n_2026-11-29_\n\n- New.\n\n");
    // A dot is a dot, as re.escape makes it: 0x4x0 is not 0.4.0.
    expect(releaseNotes("## 0x4x0\n- Not it.\n", "0.4.0", "0.3.0")).toBe("## 0x4x0\n- Not it.\n");
  });
});
