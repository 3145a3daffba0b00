import { type Auth, type Connection, createConnection } from "home-assistant-js-websocket";

// How the link's socket is opened: with ws as the global WebSocket, and one attempt at a time that
// a stop ends.

/**
 * The library opens its socket with the global WebSocket: made ws here, on every Node. Node 20 has
 * none; Node 22 and later define one, but it is Node's own bundled copy of undici, loaded whole on
 * the first read of the global. Writing the global replaces Node's lazy getter without calling it,
 * so the global is never read first. What it saves: the ledger, src/build/README.md.
 */
export async function ensureWebSocket(): Promise<void> {
  const { WebSocket } = await import("ws");
  (globalThis as { WebSocket?: unknown }).WebSocket = class extends WebSocket {
    // Without compression (ws offers it, and Home Assistant takes it): a pair of zlib streams held
    // for the link's life, to shrink messages of a few hundred bytes on a local network.
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { perMessageDeflate: false });
    }
  };
}

/**
 * One attempt of the library's, or undefined once `stop` aborts: a Home Assistant that accepts and
 * never answers holds an attempt as long as its socket lives. A connection made after the stop is
 * closed as it comes.
 */
export function connectUnlessStopped(auth: Auth, stop: AbortSignal): Promise<Connection | undefined> {
  return new Promise((resolve, reject) => {
    if (stop.aborted) {
      resolve(undefined);
      return;
    }
    const onStop = () => resolve(undefined);
    stop.addEventListener("abort", onStop, { once: true });
    createConnection({ auth, setupRetry: 0 }).then(
      (conn) => {
        stop.removeEventListener("abort", onStop);
        if (stop.aborted) conn.close();
        resolve(stop.aborted ? undefined : conn);
      },
      (error: unknown) => {
        stop.removeEventListener("abort", onStop);
        reject(error);
      },
    );
  });
}
