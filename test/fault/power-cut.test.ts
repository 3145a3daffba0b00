import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DELIVERED_LOG_FILE } from "../../src/store/delivered-log.js";
import { RECENT_DELIVERY_LOG_FILE } from "../../src/store/recent-delivery-log.js";
import {
  ensureStrace,
  loggedEventIds,
  parseSyscallTrace,
  startDeliveryRig,
  stopTracedCommand,
  type TracedCall,
  underStrace,
} from "../lab/index.js";
import { bridgeFromSources } from "../support/bridge-process.js";
import { suiteOnRig } from "../support/lab-bridges.js";

// A power cut keeps of a file what was forced to disk (fsync, fdatasync) before it, and of a rename
// only what its folder's fsync made final. The bridge's delivery notes must be there before anything
// leaves it: a claim lost with the power sends its fact again unchecked, and an answer lost while
// Home Assistant dies too (a house's power cut takes both) loses what Home Assistant had not run.
// So the real bridge delivers to a real Home Assistant under strace, and the order of its calls to
// the kernel is checked: no byte goes out on a socket while a note is only in memory.

const lab = suiteOnRig(async () => {
  await ensureStrace();
  return startDeliveryRig();
});

const WRITES = new Set(["write", "writev", "pwrite64", "pwritev", "pwritev2", "sendto", "sendmsg"]);
const FORCES = new Set(["fsync", "fdatasync"]);
const RENAMES = new Set(["rename", "renameat", "renameat2"]);

interface DiskOrder {
  /** Writes to the notes' files. */
  notes: number;
  /** Renames of a rewritten notes file into place. */
  renames: number;
  /** Writes to a socket after the first note. */
  sends: number;
  /** Each write to a socket made while a note (or a rename of one) was not on disk yet. */
  early: string[];
}

/** Walks the calls in order, keeping what was written to the notes and not yet forced to disk. */
function diskOrder(calls: readonly TracedCall[], dataDir: string): DiskOrder {
  const notes = [DELIVERED_LOG_FILE, RECENT_DELIVERY_LOG_FILE].map((file) => join(dataDir, file));
  const order: DiskOrder = { notes: 0, renames: 0, sends: 0, early: [] };
  const unforced = new Set<string>();
  for (const call of calls) {
    if (call.result < 0) continue;
    if (WRITES.has(call.name) && notes.includes(call.target)) {
      order.notes++;
      unforced.add(call.target);
    } else if (RENAMES.has(call.name) && notes.some((note) => call.args.endsWith(`"${note}"`))) {
      order.renames++;
      unforced.add(dataDir);
    } else if (FORCES.has(call.name)) {
      unforced.delete(call.target);
    } else if (WRITES.has(call.name) && call.target.startsWith("TCP") && order.notes > 0) {
      order.sends++;
      if (unforced.size > 0)
        order.early.push(`${call.name} to ${call.target} before ${[...unforced].join(", ")}`);
    }
  }
  return order;
}

describe("a power cut of the bridge's host", () => {
  it("finds every delivery note on disk: each is forced there before anything leaves the bridge", async () => {
    const { ha, sim } = lab.rig;
    const child = sim.addChild("Lou", { planned: false });
    const traceFile = join(await mkdtemp(join(tmpdir(), "rf-power-cut-")), "trace");
    const bridge = await lab.start({
      children: [child.id],
      launch: underStrace(bridgeFromSources, traceFile),
    });
    const dataDir = bridge.env.REWARD_FACTS_DATA_DIR as string;
    const facts = [
      sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }),
      sim.addEvent(child.id, { type: "behavior_validated", behaviorId: "b1", label: "Make the bed" }),
      sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" }),
    ];
    const ids = facts.map((fact) => fact.id);
    await ha.waitFor(
      async () => {
        const logged = await loggedEventIds(ha);
        return ids.every((id) => logged.includes(id));
      },
      {
        timeoutMs: 120_000,
        // strace refused (no ptrace here, say) ends the bridge at once: its words tell why.
        description: () =>
          `the three facts logged by the automation; the bridge said: ${bridge.text().slice(-600)}`,
      },
    );
    const exited = bridge.exited();
    stopTracedCommand(bridge.pid as number);
    await exited;

    const order = diskOrder(parseSyscallTrace(await readFile(traceFile, "utf8")), dataDir);
    expect(order.early).toEqual([]);
    // What makes the check mean something: each fact noted four times (claimed, sent, answered,
    // acknowledged), both logs rewritten into place at start, and the deliveries gone out after.
    expect(order.notes).toBeGreaterThanOrEqual(4 * facts.length);
    expect(order.renames).toBeGreaterThanOrEqual(2);
    expect(order.sends).toBeGreaterThan(0);
    expect((await loggedEventIds(ha)).filter((id) => ids.includes(id))).toEqual(ids);
  }, 300_000);
});
