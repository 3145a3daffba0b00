import { describe, expect, it } from "vitest";
import { parseBridgeArgs } from "../src/bridge-cli.js";
import { bridgeHelp } from "../src/config/help.js";

describe("the bridge's command line", () => {
  it("runs the bridge without arguments, the removal with --remove, the help with --help", () => {
    expect(parseBridgeArgs([])).toEqual({ run: "bridge" });
    expect(parseBridgeArgs(["--remove"])).toEqual({ run: "removal" });
    expect(parseBridgeArgs(["--help"])).toBe("help");
    expect(parseBridgeArgs(["-h", "--remove"])).toBe("help");
  });

  it("refuses what it does not know, by name", () => {
    expect(parseBridgeArgs(["--purge"])).toEqual({ problem: expect.stringMatching(/--purge/) });
    expect(parseBridgeArgs(["remove"])).toEqual({ problem: expect.any(String) });
  });

  it("mentions the removal and its other spellings in --help", () => {
    const help = bridgeHelp();
    expect(help).toContain("--remove");
    expect(help).toContain("REWARD_FACTS_REMOVE");
    expect(help).toContain("remove_from_home_assistant");
  });
});
