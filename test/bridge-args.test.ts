import { describe, expect, it } from "vitest";
import { BridgeArgsError, bridgeUsage, parseBridgeArgs } from "../src/bridge-args.js";

describe("the bridge's command line", () => {
  it("runs the bridge without arguments, the removal with --remove", () => {
    expect(parseBridgeArgs([])).toEqual({ help: false, remove: false });
    expect(parseBridgeArgs(["--remove"])).toEqual({ help: false, remove: true });
    expect(parseBridgeArgs(["--help"])).toEqual({ help: true });
  });

  it("refuses what it does not know, by name", () => {
    expect(() => parseBridgeArgs(["--purge"])).toThrow(BridgeArgsError);
    expect(() => parseBridgeArgs(["--purge"])).toThrow(/--purge/);
  });

  it("mentions the removal and its other spellings in --help", () => {
    expect(bridgeUsage).toContain("--remove");
    expect(bridgeUsage).toContain("REWARD_FACTS_REMOVE");
    expect(bridgeUsage).toContain("remove_from_home_assistant");
  });
});
