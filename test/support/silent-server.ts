import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";

export interface SilentServer {
  server: Server;
  port: number;
  /** The connections it has taken so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/**
 * A TCP server on loopback that accepts every connection and never says a word: a Home Assistant
 * (or any server) that hangs. On a free port, or on `port`.
 */
export async function silentServer(port = 0): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no port");
  return {
    server,
    port: address.port,
    get accepted() {
      return accepted;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
