// undici parses HTTP with llhttp, a WebAssembly module: each response is some twenty calls between
// JavaScript and it. V8 (12 and later: Node 22, 24, 26) makes those calls through a generic wrapper,
// and after a thousand calls of one function compiles a wrapper of its own with its optimizing
// compiler, whose code pages of the node binary then stay resident for good, to save a fraction of
// a microsecond per call on one request every few seconds. V8 11 (Node 20) compiles its wrappers as
// it instantiates a module, with no tier-up, and has no such flag: it would print an error for it.
// What it saves, and what to check on a Node upgrade: the ledger, src/build/README.md.
import { setFlagsFromString } from "node:v8";

/** Calls before V8 compiles a JS-to-WebAssembly wrapper of its own: never, in practice. */
const NEVER = 2 ** 31 - 1;

/** V8's flag that keeps the generic wrapper, for the V8 of `v8Version`; undefined where it has none. */
export function wrapperBudgetFlag(v8Version: string): string | undefined {
  const major = Number.parseInt(v8Version, 10);
  return major >= 12 ? `--wasm-wrapper-tiering-budget=${NEVER}` : undefined;
}

/**
 * Keeps the generic JS-to-WebAssembly wrappers for the life of the process. V8 takes the budget
 * as it sets up a module's instance, so this runs before undici's first request, when undici
 * compiles and instantiates its parser: src/http/undici.ts calls it as it loads.
 */
export function keepGenericWasmWrappers(
  v8Version: string = process.versions.v8,
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  const flag = wrapperBudgetFlag(v8Version);
  if (flag) setFlags(flag);
}
