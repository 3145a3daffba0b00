import { once } from "node:events";
import { connect, createServer, type Socket } from "node:net";

interface Pair {
  client: Socket;
  upstream: Socket;
  /** What the far side sends on this connection is thrown away. */
  deaf: boolean;
  /** The client opened a websocket on it (its first bytes ask for `/api/websocket`). */
  websocket: boolean;
}

/**
 * A TCP relay on loopback between the bridge and Home Assistant, which a test can make fail as a
 * network does: first what Home Assistant says is lost (its answers to requests that still reach
 * it), then every connection ends at once. New connections pass as before. Bytes go through
 * untouched: REST and the websocket alike.
 */
export class CuttableLink {
  readonly #pairs = new Set<Pair>();
  readonly #server = createServer((client) => (this.#refusing ? client.destroy() : this.#relay(client)));
  #refusing = false;
  #target: { host: string; port: number } = { host: "127.0.0.1", port: 0 };
  #url = "";

  /**
   * Relays to `target` (Home Assistant's base URL); `url` is the one to give the bridge. On a free
   * port, or on `listenPort` (Home Assistant appearing at an address the bridge already tries).
   */
  static async open(target: string, listenPort = 0): Promise<CuttableLink> {
    const link = new CuttableLink();
    const { hostname, port } = new URL(target);
    link.#target = { host: hostname, port: Number(port) };
    link.#server.listen(listenPort, "127.0.0.1");
    await once(link.#server, "listening");
    const address = link.#server.address();
    if (!address || typeof address !== "object") throw new Error("the relay got no port");
    link.#url = `http://127.0.0.1:${address.port}`;
    return link;
  }

  /** The base URL to give the bridge instead of Home Assistant's. */
  get url(): string {
    return this.#url;
  }

  /** How many websockets (`GET /api/websocket`) are open through the relay now. */
  get openWebsockets(): number {
    return [...this.#pairs].filter((pair) => pair.websocket).length;
  }

  /** From now on, what Home Assistant sends on the open connections never arrives. */
  loseReplies(): void {
    for (const pair of this.#pairs) pair.deaf = true;
  }

  /** Ends every open connection, both ways, as a failed network would. */
  cut(): void {
    for (const pair of [...this.#pairs]) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  /** Ends every open connection and refuses new ones until `admit()`: the far side is unreachable. */
  refuse(): void {
    this.#refusing = true;
    this.cut();
  }

  admit(): void {
    this.#refusing = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #relay(client: Socket): void {
    const upstream = connect(this.#target.port, this.#target.host);
    const pair: Pair = { client, upstream, deaf: false, websocket: false };
    this.#pairs.add(pair);
    client.once("data", (chunk) => {
      pair.websocket = chunk.toString("latin1").startsWith("GET /api/websocket");
    });
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (!pair.deaf) client.write(chunk);
    });
    const end = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
    }
  }
}
