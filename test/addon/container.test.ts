import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { builtinModules } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { packageVersion, readManifest, readText, repoRoot } from "./supervisor-rules.js";

// No Docker engine here: the Dockerfile is checked as text, the entrypoint with stand-ins for the
// programs it calls, and the image's dependencies by following the bridge's imports.

const dockerfile = readText("addon/Dockerfile");
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const stages = instructions
  .join("\n")
  .split(/^(?=FROM )/m)
  .filter((stage) => stage.startsWith("FROM "));
const finalStage = stages.at(-1) ?? "";
const buildStage = stages[0] ?? "";
const withKeyword = (keyword: string) => instructions.filter((line) => line.startsWith(`${keyword} `));
const execForm = (line: string | undefined) => JSON.parse(line?.replace(/^\S+\s+(CMD\s+)?/, "") ?? "null");

describe("the Dockerfile", () => {
  it("starts from an explicit Node 26 (the active LTS) Alpine tag with its security fixes, never latest", () => {
    const froms = withKeyword("FROM");
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const tag = /^FROM node:(\d+)\.(\d+)(\.\d+)?-alpine3\.\d+(\s+AS\s+\w+)?$/.exec(from);
      expect(tag, from).not.toBeNull();
      // 26.13 is the first minor all of whose patches hold the fixes of the 2026-10-21 security
      // release (26.12.1); a minor tag takes that minor's newest patch.
      expect(Number(tag?.[1]), from).toBe(26);
      expect(Number(tag?.[2]), from).toBeGreaterThanOrEqual(13);
    }
  });

  it("bundles in one stage and installs no package in the other", () => {
    expect(buildStage).toMatch(/^RUN npm ci\b/m);
    expect(buildStage).toMatch(/^RUN npm run build\b/m);
    // The bundle holds every package it runs (test/build/build-bridge.test.ts runs it without).
    expect(finalStage).not.toMatch(/\bnpm\b|node_modules|tsx/);
  });

  it("copies only what its .dockerignore lets into the build context", () => {
    // BuildKit reads addon/Dockerfile.dockerignore for this Dockerfile: everything is left out
    // (`**`) but the paths it names with `!`. A COPY of anything else fails the image's build.
    const admitted = readText("addon/Dockerfile.dockerignore")
      .split("\n")
      .filter((line) => line.startsWith("!"))
      .map((line) => line.slice(1).replace(/\/$/, ""));
    const sources = withKeyword("COPY")
      .filter((line) => !line.includes("--from="))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(0);
    const left = sources.filter(
      (source) => !admitted.some((path) => source === path || source.startsWith(`${path}/`)),
    );
    expect(left).toEqual([]);
  });

  it("copies the bundle and package.json only: no sources, tests or lockfile", () => {
    const copies = finalStage.split("\n").filter((line) => line.startsWith("COPY "));
    expect(copies.filter((line) => !line.includes("entrypoint.sh"))).toEqual([
      "COPY package.json ./",
      "COPY --from=build /app/dist/src ./dist/src",
    ]);
  });

  it("labels the image for the Supervisor, with the package's version by default", () => {
    const labels = withKeyword("LABEL").join(" ");
    expect(labels).toContain('io.hass.type="app"');
    // The project's page, which the Supervisor and `docker inspect` show as the image's home.
    expect(labels).toContain('io.hass.url="https://github.com/reward-facts/reward-facts-bridge"');
    // Docker's own ${...}, not a template literal's.
    const dockerVariable = (name: string) => `"$${"{"}${name}}"`;
    expect(labels).toContain(`io.hass.version=${dockerVariable("BUILD_VERSION")}`);
    expect(labels).toContain(`io.hass.arch=${dockerVariable("BUILD_ARCH")}`);
    expect(finalStage).toContain(`ARG BUILD_VERSION=${packageVersion()}`);
    expect(finalStage).toMatch(/^ARG BUILD_ARCH=(aarch64|amd64)$/m);
  });

  it("checks its health with the bridge's heartbeat check", () => {
    const [healthcheck] = withKeyword("HEALTHCHECK");
    expect(healthcheck).toMatch(/CMD \["node", "dist\/src\/health\/check\.js"\]$/);
    expect(existsSync(join(repoRoot, "src/health/check.ts"))).toBe(true);
  });

  it("runs the bridge under tini, stopped by SIGTERM", () => {
    const command = execForm(withKeyword("CMD")[0]) as string[];
    expect(command[0]).toBe("node");
    expect(command.at(-1)).toBe("dist/src/main.js");
    expect(existsSync(join(repoRoot, "src/main.ts"))).toBe(true);
    expect(withKeyword("STOPSIGNAL")).toEqual(["STOPSIGNAL SIGTERM"]);
    const entrypoint = execForm(withKeyword("ENTRYPOINT")[0]) as string[];
    expect(entrypoint.slice(0, 2)).toEqual(["/sbin/tini", "--"]);
    expect(finalStage).toMatch(/apk add --no-cache .*\btini\b/);
  });

  it("runs node with flags that leave undici able to read an HTTP answer", async () => {
    // --jitless (and --lite-mode, which implies it) removes WebAssembly, which undici's HTTP
    // parser needs: the bridge would then reach neither the API nor Home Assistant.
    const command = execForm(withKeyword("CMD")[0]) as string[];
    const flags = command.slice(1, -1);
    const server = createServer((_request, response) => response.end("pong"));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const { port } = server.address() as AddressInfo;
      const script =
        'import { request } from "undici";' +
        `const answer = await request("http://127.0.0.1:${port}/");` +
        "process.stdout.write(await answer.body.text());";
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [...flags, "--input-type=module", "-e", script],
        { cwd: repoRoot },
      );
      expect(stdout).toBe("pong");
    } finally {
      server.close();
    }
  }, 30_000);

  it("runs node with the same flags as npm start, so that a standalone bridge is as lean", () => {
    const command = execForm(withKeyword("CMD")[0]) as string[];
    const { scripts } = JSON.parse(readText("package.json")) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(command.join(" "));
  });

  it("is what config.yaml's init: false relies on (no second init, none missing)", () => {
    expect(readManifest().init).toBe(false);
    expect(execForm(withKeyword("ENTRYPOINT")[0])[0]).toBe("/sbin/tini");
  });

  it("keeps the bridge off root: the entrypoint drops to node, and no USER root undoes it", () => {
    expect(finalStage).toMatch(/apk add --no-cache .*\bsu-exec\b/);
    expect(finalStage).toContain("COPY addon/entrypoint.sh /usr/local/bin/reward-facts-entrypoint");
    expect(withKeyword("USER").filter((line) => !/USER node\b/.test(line))).toEqual([]);
  });

  it("lets AppArmor run every program the container starts", () => {
    const profile = readText("addon/apparmor.txt");
    expect(profile.match(/^profile \S+/gm)).toEqual(["profile reward_facts"]);
    const programs = [
      ...(execForm(withKeyword("ENTRYPOINT")[0]) as string[]).filter((arg) => arg.startsWith("/")),
      "/sbin/su-exec",
      "/usr/local/bin/node",
    ];
    for (const program of programs)
      expect(profile, program).toMatch(
        new RegExp(`^\\s*${program.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} r?ix,`, "m"),
      );
    expect(profile).toMatch(/^\s*\/data\/\{,\*\*\} rwk,/m);
  });
});

describe("the image's production dependencies", () => {
  const pkg = JSON.parse(readText("package.json")) as { dependencies: Record<string, string> };
  const builtins = new Set(builtinModules);

  /** Bare imports reachable from an entry file, following relative imports through src/. */
  function bareImports(entry: string): Map<string, string> {
    const found = new Map<string, string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      // `from "x"` and `import("x")`, not a method named from (`Buffer.from("…")`).
      for (const match of text.matchAll(/(?<![.\w])(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        const specifier = match[1] as string;
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
        else found.set(specifier, file);
      }
    };
    visit(join(repoRoot, entry));
    return found;
  }

  it.each(["src/main.ts", "src/health/check.ts"])("are all %s needs at run time", (entry) => {
    const missing = [...bareImports(entry)]
      .filter(([specifier]) => !specifier.startsWith("node:") && !builtins.has(specifier))
      .map(([specifier, file]) => ({
        name: specifier.startsWith("@")
          ? specifier.split("/").slice(0, 2).join("/")
          : specifier.split("/")[0],
        file,
      }))
      .filter(({ name }) => !(name && name in pkg.dependencies));
    expect(missing).toEqual([]);
  });
});

describe("the entrypoint", () => {
  const scratch = mkdtempSync(join(tmpdir(), "entrypoint-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const run = promisify(execFile);

  /** Runs addon/entrypoint.sh with stand-ins for id, chown and su-exec that log their arguments. */
  async function runAs(uid: number, name: string) {
    const dir = join(scratch, name);
    const bin = join(dir, "bin");
    const data = join(dir, "data");
    const log = join(dir, "calls.log");
    mkdirSync(bin, { recursive: true });
    mkdirSync(data);
    const standIn = (program: string, body: string) => {
      writeFileSync(join(bin, program), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, program), 0o755);
    };
    standIn("id", `echo ${uid}`);
    standIn("chown", `echo "chown $*" >> "${log}"`);
    standIn("su-exec", `echo "su-exec $1" >> "${log}"; shift; exec "$@"`);
    const { stdout } = await run(
      "/bin/sh",
      [join(repoRoot, "addon/entrypoint.sh"), "echo", "bridge", "runs"],
      {
        env: { PATH: `${bin}:/usr/bin:/bin`, REWARD_FACTS_DATA_DIR: data },
      },
    );
    const calls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
    return { stdout: stdout.trim(), calls, data };
  }

  it("as root, hands the data folder to node and drops to it", async () => {
    const { stdout, calls, data } = await runAs(0, "root");
    expect(calls).toEqual([`chown -R node:node ${data}`, "su-exec node:node"]);
    expect(stdout).toBe("bridge runs");
  });

  it("as another user, runs the command as it is", async () => {
    const { stdout, calls } = await runAs(1000, "user");
    expect(calls).toEqual([]);
    expect(stdout).toBe("bridge runs");
  });
});
