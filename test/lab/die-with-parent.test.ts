import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { waitFor } from "../support/wait-for.js";

// A test process killed at its time limit runs no exit handler: what it started must die by the
// kernel's hand (die-with-parent.ts). Here a parent of our own starts a command as the suites
// start bridges and brokers, and is killed with SIGKILL.

const helper = fileURLToPath(new URL("./die-with-parent.ts", import.meta.url));

/** Running, as opposed to gone or a zombie waiting to be reaped. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  return stat !== "" && state !== "Z" && state !== "X";
}

describe("children started to die with the test process", () => {
  it("are killed when that process is killed with SIGKILL", async () => {
    const script = [
      `import { spawn } from "node:child_process";`,
      `import { dieWithParentQuickly } from ${JSON.stringify(helper)};`,
      `const line = dieWithParentQuickly("sleep", ["600"]);`,
      `const child = spawn(line.command, line.args, { stdio: "ignore" });`,
      `process.stdout.write(child.pid + "\\n");`,
      "setInterval(() => {}, 2 ** 30);",
    ].join("\n");
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(parent, "exit");
    let pid: number | undefined;
    try {
      const [line] = (await once(parent.stdout, "data")) as [Buffer];
      pid = Number(line.toString().trim());
      expect(pid).toBeGreaterThan(0);
      await waitFor(() => alive(pid as number), { timeoutMs: 5_000, description: "the child runs" });
      parent.kill("SIGKILL");
      await exited;
      await waitFor(async () => !(await alive(pid as number)), {
        timeoutMs: 5_000,
        description: "the child died with its parent",
      });
    } finally {
      parent.kill("SIGKILL");
      if (pid !== undefined && (await alive(pid))) process.kill(pid, "SIGKILL");
    }
  });
});
