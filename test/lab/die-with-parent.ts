import { existsSync } from "node:fs";

/*
 * Node's 'exit' handlers do not run when a test worker is killed by a signal, and its children
 * live on: a Home Assistant holding its port, or a pip still writing into a virtualenv that the
 * next run is rebuilding. So children are started through Python, which asks the kernel (Linux
 * prctl PR_SET_PDEATHSIG) to SIGKILL them when this process dies, then execs the real command.
 * The parent pid check closes the race where we died between spawn and prctl. Elsewhere than
 * Linux, prctl is missing and the child simply runs unguarded.
 */
const launcherScript = [
  "import ctypes, os, signal, sys",
  "try:",
  "    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)",
  "except (AttributeError, OSError):",
  "    pass",
  "if os.getppid() != int(sys.argv[1]):",
  "    sys.exit('the test process died before the command started')",
  "os.execvp(sys.argv[2], sys.argv[2:])",
].join("\n");

/** The command line that runs `command args…` so that it dies with this process. */
export function dieWithParent(
  python: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: python, args: ["-c", launcherScript, String(process.pid), command, ...args] };
}

/** util-linux's setpriv, where Debian puts it. */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => existsSync(path));

/**
 * The same guard without an interpreter, for the children the suites start by the hundred (a
 * bridge for each kill of a kill test, a broker per file): setpriv asks the kernel for the SIGKILL
 * and execs the command, in a few milliseconds where Python takes a fifth of a second here. The pid
 * stays the command's (exec). Without setpriv the command runs unguarded.
 */
export function dieWithParentQuickly(
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return SETPRIV
    ? { command: SETPRIV, args: ["--pdeathsig", "KILL", "--", command, ...args] }
    : { command, args: [...args] };
}
