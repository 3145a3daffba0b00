import { existsSync } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { debianMirror, readAptSources } from "./apt-mirror.js";
import { APT_WAITS_FOR_LOCK } from "./debian-package.js";
import { runCommand } from "./run-command.js";

/*
 * A minimal Debian root for a Python this machine's Debian release does not ship (Debian 12 has
 * 3.11; Home Assistant 2026.11 needs 3.14, which Debian's testing suite has). Built with
 * debootstrap from the machine's own mirror, entered with chroot (enter-root.ts).
 */

export interface DebianRootSpec {
  /** The suite to install, e.g. `forky` (testing). */
  suite: string;
  /**
   * debootstrap's script for it. Debian 12's debootstrap knows no suite newer than its own; sid's
   * script fits testing, which differs from unstable only in which versions it holds.
   */
  script: string;
  /** Installed on top of minbase. */
  packages: readonly string[];
  /** The interpreter inside, e.g. `/usr/bin/python3.14`. */
  python: string;
}

/** A step of an install: runs a command, logs it, and throws an error a person can act on if it fails. */
export type InstallStep = (
  what: string,
  command: string,
  args: readonly string[],
  options?: { hint?: string; root?: string },
) => Promise<string>;

/** Why this machine cannot build the root, or the mirror to build it from. */
export async function debianRootSupport(): Promise<{ mirror: string } | { missing: string }> {
  if (process.platform !== "linux" || process.getuid?.() !== 0)
    return { missing: "root on Debian (debootstrap and chroot need root)" };
  const osRelease = await readFile("/etc/os-release", "utf8").catch(() => "");
  const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, "m").exec(osRelease)?.[1];
  if (field("ID") !== "debian")
    return { missing: `Debian (this is ${field("PRETTY_NAME") ?? "not Debian"})` };
  const codename = field("VERSION_CODENAME") ?? "";
  const mirror = debianMirror(await readAptSources(), codename);
  if (!mirror) return { missing: `a Debian mirror for ${codename || "this release"} in /etc/apt's sources` };
  return { mirror };
}

/** Builds the root at `root` (which must not exist) and makes it reach registries as the host does. */
export async function buildDebianRoot(
  root: string,
  spec: DebianRootSpec,
  mirror: string,
  step: InstallStep,
): Promise<void> {
  const debootstrap = await ensureDebootstrap(step);
  await step(
    `debootstrap of Debian ${spec.suite} from ${mirror}`,
    debootstrap,
    [
      "--variant=minbase",
      `--include=${spec.packages.join(",")}`,
      spec.suite,
      root,
      mirror,
      `/usr/share/debootstrap/scripts/${spec.script}`,
    ],
    { hint: `; does ${mirror} serve ${spec.suite}?` },
  );
  // Registries are reached through the host's certificate chain (a proxy's own CA, if any).
  await copyFile("/etc/ssl/certs/ca-certificates.crt", join(root, "etc/ssl/certs/ca-certificates.crt"));
}

/** debootstrap from the host's packages, installed if missing. */
async function ensureDebootstrap(step: InstallStep): Promise<string> {
  const path = "/usr/sbin/debootstrap";
  if (existsSync(path)) return path;
  const install = [...APT_WAITS_FOR_LOCK, "install", "-y", "--no-install-recommends", "debootstrap"];
  try {
    await step("apt-get install debootstrap", "apt-get", install);
  } catch {
    // A fresh machine may have no package lists yet.
    await step("apt-get update", "apt-get", [...APT_WAITS_FOR_LOCK, "update"]);
    await step("apt-get install debootstrap", "apt-get", install);
  }
  return path;
}

/**
 * Unmounts whatever is mounted below `dir` (deepest first), so that it can be removed: a
 * debootstrap killed half-way leaves its /proc and /sys mounted in the root it was building.
 */
export async function unmountBelow(dir: string): Promise<void> {
  const mountinfo = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  const prefix = `${dir.replace(/\/+$/, "")}/`;
  const points = mountinfo
    .split("\n")
    // Field 5 is the mount point, with spaces and the like escaped in octal.
    .map((line) =>
      (line.split(" ")[4] ?? "").replace(/\\([0-7]{3})/g, (_, octal: string) =>
        String.fromCharCode(Number.parseInt(octal, 8)),
      ),
    )
    .filter((point) => point.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
  for (const point of points) {
    const run = await runCommand("umount", ["--lazy", point], { timeoutMs: 30_000 });
    if (run.code !== 0)
      throw new Error(`cannot unmount ${point} before removing ${dir}: ${run.output.trim()}`);
  }
}
