// The add-on's documents as the tests read them: the Documentation tab's DOCS.md, the pages it
// links under addon/docs/, their headings' anchors and their links, resolved to files here.
import { readdirSync } from "node:fs";
import { posix } from "node:path";
import { readText, repoRoot } from "./supervisor-rules.js";

/**
 * Where DOCS.md points at its pages: the Documentation tab cannot follow a relative link (it is
 * not served from the repository), so DOCS links the pages on GitHub; the tests read them here.
 */
export const REPOSITORY_FILES = "https://github.com/reward-facts/reward-facts-bridge/blob/main/";

/** DOCS.md and every page of addon/docs/, as paths from the repository's root. */
export const docPages = () => [
  "addon/DOCS.md",
  ...readdirSync(`${repoRoot}/addon/docs`)
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `addon/docs/${file}`),
];

/** A document without its fenced code blocks (a YAML comment is not a heading, nor a link). */
export const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");

/** A heading's anchor as GitHub makes it: lower case, spaces to hyphens, punctuation dropped. */
export const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** The anchors of a Markdown file's headings. */
export const anchorsOf = (path: string) =>
  [...prose(readText(path)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] as string));

export interface Link {
  from: string;
  target: string;
  /** The file it names, from the repository's root; the linking file itself for `#anchor`. */
  file: string;
  section: string | undefined;
}

/** The links (and images) of a document to files of this repository: relative, or on GitHub. */
export const repositoryLinks = (from: string): Link[] =>
  [...prose(readText(from)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].flatMap((m) => {
    const target = m[1] as string;
    let path: string;
    if (target.startsWith(REPOSITORY_FILES)) path = target.slice(REPOSITORY_FILES.length);
    else if (/^[a-z][a-z+.-]*:/i.test(target)) return [];
    else path = target;
    const [file = "", section] = path.split("#");
    const resolved = file === "" ? from : posix.normalize(posix.join(posix.dirname(from), file));
    return [{ from, target, file: target.startsWith(REPOSITORY_FILES) ? file : resolved, section }];
  });
