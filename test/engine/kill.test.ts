import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import { seededRandom } from "../support/engine-rig.js";

const fixture = fileURLToPath(new URL("./fixtures/engine-process.ts", import.meta.url));
const KILLS = 24;

let sim: ApiSimulator | undefined;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await sim?.stop();
});

function startEngineProcess(settings: object): ChildProcess {
  const line = dieWithParentQuickly(process.execPath, ["--import", "tsx", fixture, JSON.stringify(settings)]);
  const child = spawn(line.command, line.args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return child;
}

async function delivered(sinkFile: string): Promise<Array<{ childId: string; id: string }>> {
  const text = await readFile(sinkFile, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { childId: string; id: string });
}

describe("kill -9 at random moments", () => {
  it(`delivers every fact exactly once across ${KILLS} SIGKILLs while facts keep coming`, async () => {
    sim = await ApiSimulator.start({ activity: false, rateLimitPerMinute: 1_000_000 });
    const { ordinary, custody } = sim.children;
    const dir = await mkdtemp(join(tmpdir(), "rf-kill-"));
    const sinkFile = join(dir, "sink.jsonl");
    const settings = {
      baseUrl: sim.url,
      token: sim.tokens.household,
      dataDir: join(dir, "data"),
      sinkFile,
      timeZone: sim.timeZone,
    };
    // Facts keep coming in real time, to both children, some sharing an instant.
    const producer = setInterval(() => {
      sim?.addEvent(ordinary.id, { type: "cheer_sent", cheer: "super" });
      sim?.addEvents(custody.id, 3);
    }, 15);

    const random = seededRandom(Date.now() % 1_000);
    let killedMidStream = 0;
    try {
      for (let i = 0; i < KILLS; i++) {
        const child = startEngineProcess(settings);
        if (!child.stdout) throw new Error("no stdout");
        await once(child.stdout, "data");
        const before = (await delivered(sinkFile)).length;
        await sleep(50 + random() * 700);
        child.kill("SIGKILL");
        await once(child, "exit");
        if ((await delivered(sinkFile)).length > before) killedMidStream++;
      }
    } finally {
      clearInterval(producer);
    }

    // One last run, left alone until it has caught up with everything produced.
    const expected = [...sim.journal(ordinary.id), ...sim.journal(custody.id)].length;
    const last = startEngineProcess(settings);
    for (let waited = 0; (await delivered(sinkFile)).length < expected && waited < 30_000; waited += 100) {
      await sleep(100);
    }
    await sleep(500);
    last.kill("SIGKILL");

    const got = await delivered(sinkFile);
    for (const child of [ordinary, custody]) {
      expect(got.filter((d) => d.childId === child.id).map((d) => d.id)).toEqual(
        sim.journal(child.id).map((e) => e.id),
      );
    }
    // The kills did land while facts were flowing, not only between polls.
    expect(killedMidStream).toBeGreaterThan(KILLS / 2);
    expect(expected).toBeGreaterThan(1_000);
  }, 120_000);
});
