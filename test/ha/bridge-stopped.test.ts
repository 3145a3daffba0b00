import { describe, expect, it } from "vitest";
import { childEntityId, childEntityKinds, STATUS_ENTITY_ID } from "../../src/ha/entities/entities.js";
import { startDeliveryRig, testedHomeAssistantVersion } from "../lab/index.js";
import { suiteOnRig } from "../support/lab-bridges.js";

const version = testedHomeAssistantVersion();

// A bridge stopped by SIGTERM (the Supervisor stopping the add-on, Ctrl-C) leaves nothing in Home
// Assistant that looks current: the status says `stopped`, every child entity is unavailable with
// the reason and the time of its last read, so a dashboard of minutes left cannot lie.

// Home Assistant and a simulator with no activity of its own, in REST mode (its event log unused).
const lab = suiteOnRig(() => startDeliveryRig(version));

describe(`a bridge stopped with SIGTERM, on Home Assistant ${version}`, () => {
  it("leaves the status `stopped` and every child entity unavailable, with when it was last read", async () => {
    const { ha, sim } = lab.rig;
    const bridge = await lab.start({ children: [sim.children.ordinary.id] });
    const minutes = childEntityId("lea", "minutes_remaining");
    const running = await ha.waitFor(
      async () => {
        const [status, state] = await Promise.all([ha.getState(STATUS_ENTITY_ID), ha.getState(minutes)]);
        return status?.state === "ok" && state && state.state !== "unavailable"
          ? { status, state }
          : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const lastRead = running.state.attributes.last_read as string;
    expect(Date.parse(lastRead)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(running.status.attributes.last_turn as string)).toBeGreaterThan(Date.now() - 60_000);

    expect(await bridge.stop()).toBe(0);

    const status = await ha.getState(STATUS_ENTITY_ID);
    expect(status?.state).toBe("stopped");
    for (const kind of childEntityKinds) {
      const state = await ha.getState(childEntityId("lea", kind));
      expect(state?.state, kind).toBe("unavailable");
      expect(state?.attributes.reason, kind).toBe("the bridge stopped");
      // The last read of this run: the one shown while it ran, or a later one.
      expect(Date.parse(state?.attributes.last_read as string), kind).toBeGreaterThanOrEqual(
        Date.parse(lastRead),
      );
    }
  }, 120_000);
});
