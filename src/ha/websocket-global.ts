// home-assistant-js-websocket opens its socket with the global WebSocket. Node 22 and later define
// one, but it is Node's own bundled copy of undici: the first read of globalThis.WebSocket loads
// all of it (its fetch, its WebIDL, a second compile of undici's HTTP parser). Measured on Node 24
// against Home Assistant, a socket through it costs about 10 MiB anonymous and 5 MiB of the node
// binary more than one through ws, which Node 20 (no global WebSocket) already uses. Writing the
// global replaces Node's lazy getter without calling it.

/** Makes ws the global WebSocket, on every Node, before anything reads that global. */
export async function installWsAsGlobalWebSocket(): Promise<void> {
  const { WebSocket } = await import("ws");
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
}
