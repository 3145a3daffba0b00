import { ensureDebianProgram } from "./debian-package.js";

/*
 * A process whose wall clock is off by a set amount, as on a host whose time is wrong (an hour, a
 * time zone taken for UTC): Debian's libfaketime, preloaded, moves what the process reads of the
 * wall clock and leaves its monotonic clock (its timers) alone. Nothing else is faked: the process
 * talks to the real Home Assistant, which keeps the right time.
 */

const LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

/** Installs libfaketime once per machine, as the lab's other programs from Debian. */
export function ensureFaketime(): Promise<void> {
  return ensureDebianProgram({
    neededBy: "the tests of bridges whose clocks differ",
    binary: LIBFAKETIME,
    packages: ["libfaketime"],
  });
}

/** The environment that puts a process's wall clock `offset` off: `+60m`, `-2h` (libfaketime's own). */
export function clockOffEnv(offset: string): Record<string, string> {
  if (!/^[+-]\d+[mhd]$/.test(offset)) throw new Error(`not an offset libfaketime takes: ${offset}`);
  return { LD_PRELOAD: LIBFAKETIME, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: "1" };
}
