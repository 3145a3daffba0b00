// Exit codes of the two process entries (the bridge and the demo), and how long a stop may take.

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
/** Bad configuration or arguments, a refused Home Assistant token: a person must act. */
export const EXIT_CONFIG = 2;
/** The Supervisor waits 10 s after SIGTERM by default; finish well within it. */
export const STOP_TIMEOUT_MS = 5_000;
