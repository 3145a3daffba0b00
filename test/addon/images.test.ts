import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { docPages, repositoryLinks } from "./markdown.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// The store shows icon.png (128×128) in lists and logo.png (about 250×100) on the add-on's page;
// README, DOCS and its pages show the browser tests' screenshots. A file that only looks like a PNG shows as
// a broken image, so each one is decoded here.

interface Png {
  width: number;
  height: number;
  colourType: number;
}

function decodePng(path: string): Png {
  const bytes = readFileSync(join(repoRoot, path));
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const idat: Buffer[] = [];
  let header: Png | undefined;
  let offset = 8;
  let ended = false;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    expect(bytes.readUInt32BE(offset + 8 + length), `${type} CRC`).toBe(
      crc32(bytes.subarray(offset + 4, offset + 8 + length)),
    );
    if (type === "IHDR")
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), colourType: data[9] ?? -1 };
    if (type === "IDAT") idat.push(data);
    if (type === "IEND") ended = true;
    offset += 12 + length;
  }
  expect(ended).toBe(true);
  if (!header) throw new Error(`${path}: no IHDR`);
  // 8-bit RGB or RGBA, one filter byte per row.
  const bytesPerPixel = { 2: 3, 6: 4 }[header.colourType];
  if (!bytesPerPixel) throw new Error(`${path}: colour type ${header.colourType}, not 8-bit RGB(A)`);
  expect(inflateSync(Buffer.concat(idat)).length).toBe(header.height * (1 + header.width * bytesPerPixel));
  return header;
}

describe("the add-on's images", () => {
  it("has a 128×128 icon", () => {
    expect(decodePng("addon/icon.png")).toMatchObject({ width: 128, height: 128, colourType: 6 });
  });

  it("has a logo of about 250×100", () => {
    expect(decodePng("addon/logo.png")).toMatchObject({ width: 250, height: 100, colourType: 6 });
  });

  it("has the screenshots README, DOCS and its pages show, each a real picture of the width it was taken at", () => {
    // Markdown images and <img src> of both documents, as paths from the repository's root.
    const shown = [
      ...[...readText("README.md").matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)|src="([^"]+\.png)"/g)].map(
        (m) => (m[1] ?? m[2]) as string,
      ),
      ...docPages().flatMap((page) =>
        repositoryLinks(page)
          .map((link) => link.file)
          .filter((file) => file.endsWith(".png")),
      ),
    ];
    const pictures = [
      "addon/screenshots/dashboard-ordinary-day.png",
      "addon/screenshots/dashboard-phone.png",
      "addon/screenshots/dashboard-fr-phone.png",
      "addon/screenshots/dashboard-child-view.png",
      "addon/screenshots/device-page-mqtt.png",
      "addon/screenshots/device-page-mqtt-fr.png",
      "addon/screenshots/latest-facts-fr.png",
      "addon/screenshots/week-day-one-fr.png",
    ];
    expect(new Set(shown)).toEqual(new Set(pictures));
    // None left over from an earlier layout: every picture of the folder is shown.
    expect(
      new Set(readdirSync(join(repoRoot, "addon/screenshots")).map((file) => `addon/screenshots/${file}`)),
    ).toEqual(new Set(pictures));
    // The widths of the browser tests' windows: a desktop's and a wall tablet's 1280, a phone's 390
    // (the phone's pictures go down to the end of the first child's section, past the screen's 844).
    expect(decodePng("addon/screenshots/dashboard-ordinary-day.png").width).toBe(1280);
    expect(decodePng("addon/screenshots/dashboard-phone.png").width).toBe(390);
    expect(decodePng("addon/screenshots/dashboard-phone.png").height).toBeGreaterThan(844);
    expect(decodePng("addon/screenshots/dashboard-fr-phone.png").width).toBe(390);
    expect(decodePng("addon/screenshots/dashboard-fr-phone.png").height).toBeGreaterThan(844);
    expect(decodePng("addon/screenshots/dashboard-child-view.png")).toMatchObject({
      width: 1280,
      height: 800,
    });
    expect(decodePng("addon/screenshots/device-page-mqtt.png").width).toBe(1280);
    expect(decodePng("addon/screenshots/device-page-mqtt-fr.png").width).toBe(1280);
  });
});
