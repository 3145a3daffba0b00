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
