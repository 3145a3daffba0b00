import { describe, expect, it } from "vitest";
import { gaugeTop, gaugeTopOf } from "../../../src/ha/dashboard/gauge-top.js";
import { sampleCalmDay, sampleToday } from "../../support/facts.js";

describe("the top of a child's minutes gauge", () => {
  it.each([
    ["her unlocked minutes", { unlocked: 45, remaining: 25 }, 45],
    ["all of them left", { unlocked: 60, remaining: 60 }, 60],
    ["her minutes left when more remain than were unlocked today", { unlocked: 20, remaining: 35 }, 35],
    ["none while nothing is unlocked (a gauge from 0 to 0)", { unlocked: 0, remaining: 0 }, undefined],
  ])("is %s", (_what, minutes, top) => {
    expect(gaugeTop(minutes)).toBe(top);
  });

  it("follows the day read from the API; says nothing on the other home's day", () => {
    expect(gaugeTopOf(sampleToday)).toBe(45);
    expect(gaugeTopOf({ ...sampleToday, minutesUnlocked: 90, minutesRemaining: 70 })).toBe(90);
    expect(gaugeTopOf(sampleCalmDay)).toBeUndefined();
  });
});
