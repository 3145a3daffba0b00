import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { ChildRef } from "../../../src/engine/sink.js";
import { SettledSlugs, type ShownSlugs, type SlugMemory } from "../../../src/ha/entities/settled-slugs.js";
import { createLogger, type Logger, silentLogger } from "../../../src/log/logger.js";
import { openStore, type Store } from "../../../src/store/index.js";

// The `<child>` of a child's entity ids, settled once and kept: what a user's automations name must
// not move when the app renames her, nor when the bridge restarts. The memory is the bridge's own
// store in a data directory (as app.ts wires it), or a plain object where a test needs the memory
// itself to fail in one way only; Home Assistant's answer is what slugsShown would return.

const lea: ChildRef = { id: "3f9a-77c1-lea", firstName: "Léa" };
const noah: ChildRef = { id: "a1b2c3d4-noah", firstName: "Noah" };

/** Home Assistant shows nothing of any child: a first run on a fresh house. */
const showsNothing: ShownSlugs = async () => new Map();

/** Home Assistant shows these slugs, and counts the children it was asked about. */
function shows(slugs: Record<string, string>): ShownSlugs & { asked: string[][] } {
  const asked: string[][] = [];
  const shown = async (children: readonly ChildRef[]) => {
    asked.push(children.map((child) => child.id));
    return new Map(Object.entries(slugs));
  };
  return Object.assign(shown, { asked });
}

interface LogLine {
  level: number;
  msg: string;
  err?: { message: string };
}

function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return { logger: createLogger({ json: true, level: "debug", destination }), lines };
}

const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** The bridge's store in a fresh data directory, and the slug memory app.ts makes of it. */
async function storeMemory(dataDir?: string): Promise<{ memory: SlugMemory; store: Store; dataDir: string }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), "rf-slugs-")));
  const store = await openStore({ dataDir: dir, logger: silentLogger() });
  stores.push(store);
  const memory: SlugMemory = {
    load: () => store.get<Record<string, string>>("entity_slugs"),
    save: (slugs) => store.set("entity_slugs", { ...slugs }),
  };
  return { memory, store, dataDir: dir };
}

describe("a child's settled slug", () => {
  it("is made from her id before Home Assistant was asked", () => {
    const slugs = new SettledSlugs(undefined, silentLogger());
    expect(slugs.slugOf(lea)).toBe("child_3f9a77c1");
  });

  it("is her folded first name on a fresh house, kept in the data directory", async () => {
    const { memory, store } = await storeMemory();
    const slugs = new SettledSlugs(memory, silentLogger());
    await slugs.settle([lea, noah], showsNothing);
    expect([slugs.slugOf(lea), slugs.slugOf(noah)]).toEqual(["lea", "noah"]);
    expect(await store.get("entity_slugs")).toEqual({ [lea.id]: "lea", [noah.id]: "noah" });
  });

  it("is what Home Assistant already shows of her, before her name", async () => {
    // A bridge that lost its data directory: the ids her automations name are the ones shown.
    const slugs = new SettledSlugs(undefined, silentLogger());
    await slugs.settle([lea, noah], shows({ [lea.id]: "lea_2" }));
    expect([slugs.slugOf(lea), slugs.slugOf(noah)]).toEqual(["lea_2", "noah"]);
  });

  it("stays across a restart and a rename, without asking Home Assistant again", async () => {
    const first = await storeMemory();
    await new SettledSlugs(first.memory, silentLogger()).settle([lea], showsNothing);
    await first.store.close();
    stores.splice(stores.indexOf(first.store), 1);

    const again = await storeMemory(first.dataDir);
    const slugs = new SettledSlugs(again.memory, silentLogger());
    const renamed = { ...lea, firstName: "Léonie" };
    const shown = shows({});
    await slugs.settle([renamed], shown);
    expect(slugs.slugOf(renamed)).toBe("lea");
    expect(shown.asked).toEqual([]);
  });

  it("is never one another child holds: a shown slug already given goes to no newcomer", async () => {
    const slugs = new SettledSlugs(undefined, silentLogger());
    await slugs.settle([lea], showsNothing);
    // A second Léa, whom Home Assistant shows (wrongly, or from another bridge) under `lea`.
    const otherLea: ChildRef = { id: "9e8d-lea-two", firstName: "Lea" };
    await slugs.settle([otherLea], shows({ [otherLea.id]: "lea" }));
    expect(slugs.slugOf(lea)).toBe("lea");
    expect(slugs.slugOf(otherLea)).toBe("lea_9e8d");
  });

  it("takes `_` and her id's first characters when two newcomers fold alike", async () => {
    const slugs = new SettledSlugs(undefined, silentLogger());
    const zoe1: ChildRef = { id: "Z0E-1111", firstName: "Zoé" };
    const zoe2: ChildRef = { id: "z0e-2222", firstName: "Zoe" };
    await slugs.settle([zoe1, zoe2], showsNothing);
    expect([slugs.slugOf(zoe1), slugs.slugOf(zoe2)]).toEqual(["zoe_z0e1", "zoe_z0e2"]);
  });

  it("is kept for a child no longer followed: a slug once given is never given again", async () => {
    const slugs = new SettledSlugs(undefined, silentLogger());
    await slugs.settle([lea], showsNothing);
    const newLea: ChildRef = { id: "5555-new", firstName: "Léa" };
    // Léa (the first) left the list; the newcomer does not inherit her ids.
    await slugs.settle([newLea], showsNothing);
    expect(slugs.slugOf(newLea)).toBe("lea_5555");
  });

  it("ignores a kept entry that is no slug, and asks Home Assistant for that child", async () => {
    const { memory, store } = await storeMemory();
    await store.set("entity_slugs", { [lea.id]: "Léa Upper", [noah.id]: 7 });
    const slugs = new SettledSlugs(memory, silentLogger());
    const shown = shows({});
    await slugs.settle([lea, noah], shown);
    expect(shown.asked).toEqual([[lea.id, noah.id]]);
    expect([slugs.slugOf(lea), slugs.slugOf(noah)]).toEqual(["lea", "noah"]);
  });
});

describe("settling when something cannot be reached", () => {
  it("settles nothing while Home Assistant cannot be asked, and tries again next time", async () => {
    const { logger, lines } = capturingLogger();
    const { memory, store } = await storeMemory();
    const slugs = new SettledSlugs(memory, logger);
    await slugs.settle([lea], async () => {
      throw new Error("not connected");
    });
    expect(slugs.slugOf(lea)).toBe("child_3f9a77c1");
    expect(await store.get("entity_slugs")).toBeUndefined();
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 20,
        msg: "Home Assistant could not be asked for the children's entity ids yet",
        err: expect.objectContaining({ message: "not connected" }),
      }),
    );

    await slugs.settle([lea], shows({ [lea.id]: "lea" }));
    expect(slugs.slugOf(lea)).toBe("lea");
  });

  it("asks Home Assistant when the kept slugs cannot be read, saying so once", async () => {
    const { logger, lines } = capturingLogger();
    const { memory, store } = await storeMemory();
    // The store closed under the bridge: every read and write of it is refused.
    await store.close();
    stores.splice(stores.indexOf(store), 1);
    const slugs = new SettledSlugs(memory, logger);
    const shown = shows({ [lea.id]: "lea_kept" });
    await slugs.settle([lea], shown);
    await slugs.settle([lea, noah], shown);
    expect(slugs.slugOf(lea)).toBe("lea_kept");
    expect(shown.asked).toEqual([[lea.id], [noah.id]]);
    const warned = lines.filter((line) => line.level === 40).map((line) => line.msg);
    expect(warned.filter((msg) => msg.includes("could not be read"))).toEqual([
      "the children's settled entity ids could not be read; asking Home Assistant",
    ]);
  });

  it("keeps the slugs it settled when they cannot be saved, and says so", async () => {
    const { logger, lines } = capturingLogger();
    const saved: Array<Readonly<Record<string, string>>> = [];
    const memory: SlugMemory = {
      load: async () => ({}),
      save: async (slugs) => {
        saved.push(slugs);
        throw new Error("ENOSPC: no space left on device");
      },
    };
    const slugs = new SettledSlugs(memory, logger);
    await slugs.settle([lea], showsNothing);
    expect(saved).toEqual([{ [lea.id]: "lea" }]);
    expect(slugs.slugOf(lea)).toBe("lea");
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: "the children's settled entity ids could not be saved",
        err: expect.objectContaining({ message: "ENOSPC: no space left on device" }),
      }),
    );
  });
});
