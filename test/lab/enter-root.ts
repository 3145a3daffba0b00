/*
 * Runs a command inside a Debian root (chroot), with the root's own /proc. The /proc mount is
 * made in a mount namespace of the command's own (unshare CLONE_NEWNS, propagation private): it
 * exists for as long as the command and vanishes with it, so nothing stays mounted on the host
 * between runs, two runs never stack mounts on one another, and removing the cached root never
 * walks into a live /proc. Written for the host's Python (3.8 and later): ctypes reaches
 * unshare(2) and mount(2), which its os module lacks before 3.12. Needs root, as chroot does.
 */
const enterRootScript = [
  "import ctypes, os, sys",
  "root, cwd, argv = sys.argv[1], sys.argv[2], sys.argv[3:]",
  "libc = ctypes.CDLL(None, use_errno=True)",
  "def check(result, what):",
  "    if result != 0:",
  "        sys.exit(f'entering {root}: {what}: {os.strerror(ctypes.get_errno())}')",
  "CLONE_NEWNS, MS_REC, MS_PRIVATE = 0x20000, 0x4000, 0x40000",
  "check(libc.unshare(CLONE_NEWNS), 'unshare(CLONE_NEWNS)')",
  // A shared / (systemd's default) would carry the next mount back to the host.
  "check(libc.mount(b'none', b'/', None, MS_REC | MS_PRIVATE, None), 'making mounts private')",
  "check(libc.mount(b'proc', os.path.join(root, 'proc').encode(), b'proc', 0, None), 'mounting /proc')",
  "os.chroot(root)",
  "os.chdir(cwd)",
  // The caller's PATH names host folders (version-manager shims…) that mean nothing inside.
  "os.environ['PATH'] = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'",
  "os.environ.pop('TMPDIR', None)",
  "os.execv(argv[0], argv)",
].join("\n");

/** The command line that runs `command args…` (an absolute path inside the root) inside `root`. */
export function enterRoot(
  python: string,
  root: string,
  cwd: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: python, args: ["-c", enterRootScript, root, cwd, command, ...args] };
}
