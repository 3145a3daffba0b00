import { describe, it } from "vitest";
import { startMqttRig, testedHomeAssistantVersion } from "../../lab/index.js";
import { suiteOnRig } from "../../support/lab-bridges.js";
import { expectWhyNotShown, setWhyNotScene } from "./why-not-scene.js";

const version = testedHomeAssistantVersion();
const lab = suiteOnRig(() => startMqttRig(version));

describe(`why screens are not allowed, as REST-made states, Home Assistant ${version}`, () => {
  it("says why_not on screen_time_allowed for each reason, none while allowed", async () => {
    await expectWhyNotShown(lab, setWhyNotScene(lab.rig.sim), "rest");
  }, 180_000);
});
