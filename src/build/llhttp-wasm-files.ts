// undici parses HTTP with llhttp compiled to WebAssembly, shipped as two modules of base64 text
// (with SIMD, and without for machines that lack it). Bundled as they are, the base64 of both stays
// in the bundle's source, which V8 keeps on its heap for as long as the bridge runs, and undici
// keeps the decoded bytes too: about 270 KiB that serve once, at the first request. In the bundle,
// each becomes a .wasm file beside the code that reads it, read when undici compiles it and then
// let go. A test runs the built bridge's requests and reads what the bundle holds.
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import type { Plugin } from "esbuild";

/** undici's two modules, by the name of the file each becomes. */
const LLHTTP_MODULES = {
  "llhttp_simd.wasm": /[\\/]undici[\\/]lib[\\/]llhttp[\\/]llhttp_simd-wasm\.js$/,
  "llhttp.wasm": /[\\/]undici[\\/]lib[\\/]llhttp[\\/]llhttp-wasm\.js$/,
} as const;

type WasmFile = keyof typeof LLHTTP_MODULES;

/**
 * What stands in for one of undici's modules: the file's bytes, read anew at each require (undici
 * requires it once, to compile it), so that nothing keeps them afterwards. `__dirname` is the
 * bundle's own (build-bridge.ts's banner): the folder of the output file that holds this code.
 */
const standIn = (file: WasmFile) => `const { readFileSync } = require("node:fs");
const { join } = require("node:path");
Object.defineProperty(module, "exports", { get: () => readFileSync(join(__dirname, ${JSON.stringify(file)})) });`;

/** The bytes undici's module exports, from the module itself (the build runs on Node too). */
function wasmBytes(modulePath: string): Buffer {
  const exported: unknown = createRequire(modulePath)(modulePath);
  if (!Buffer.isBuffer(exported)) throw new Error(`${modulePath} did not export WebAssembly bytes`);
  return exported;
}

/**
 * The esbuild plugin: each of undici's llhttp modules is replaced by its stand-in, and once the
 * bundle is written, its .wasm file goes beside every output file that holds the stand-in. Needs
 * `metafile: true` (it reads which output holds which module).
 */
export function llhttpWasmFiles(): Plugin {
  return {
    name: "llhttp-wasm-files",
    setup(build) {
      const found = new Map<WasmFile, string>();
      for (const [file, filter] of Object.entries(LLHTTP_MODULES) as [WasmFile, RegExp][]) {
        build.onLoad({ filter }, (args) => {
          found.set(file, args.path);
          return { contents: standIn(file), loader: "js" };
        });
      }
      build.onEnd(async (result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        const root = build.initialOptions.absWorkingDir ?? process.cwd();
        for (const [file, modulePath] of found) {
          const bytes = wasmBytes(modulePath);
          const holders = Object.entries(result.metafile.outputs).filter(([, output]) =>
            Object.keys(output.inputs).some((input) => LLHTTP_MODULES[file].test(resolve(root, input))),
          );
          for (const [output] of holders) {
            const folder = dirname(resolve(root, output));
            await mkdir(folder, { recursive: true });
            await writeFile(join(folder, file), bytes);
          }
        }
      });
    },
  };
}
