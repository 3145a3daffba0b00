import { describe, expect, it } from "vitest";
import { parseSyscallTrace } from "./syscall-trace.js";

describe("parseSyscallTrace", () => {
  it("reads each call's target and result, a call another thread interrupted kept where it began", () => {
    const trace = [
      '101 write(19</data/delivered-events.log>, ""..., 75) = 75',
      "101 fdatasync(19</data/delivered-events.log>) = 0",
      '102 write(26<TCP:[127.0.0.1:58686->127.0.0.1:46545]>, ""..., 177 <unfinished ...>',
      '101 rename("/data/a.log.123", "/data/a.log") = 0',
      "102 <... write resumed>) = 177",
      "101 fsync(20</data>)        = 0",
      '101 write(21<pipe:[887583]>, ""..., 1) = -1 EAGAIN (Resource temporarily unavailable)',
      '103 write(22</data/x>, ""..., 4 <unfinished ...>',
      "+++ exited with 0 +++",
    ].join("\n");
    expect(
      parseSyscallTrace(trace).map(({ pid, name, target, result }) => [pid, name, target, result]),
    ).toEqual([
      [101, "write", "/data/delivered-events.log", 75],
      [101, "fdatasync", "/data/delivered-events.log", 0],
      [102, "write", "TCP:[127.0.0.1:58686->127.0.0.1:46545]", 177],
      [101, "rename", "", 0],
      [101, "fsync", "/data", 0],
      [101, "write", "pipe:[887583]", -1],
    ]);
    expect(parseSyscallTrace(trace)[3]?.args).toBe('"/data/a.log.123", "/data/a.log"');
  });
});
