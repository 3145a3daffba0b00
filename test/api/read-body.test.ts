import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCappedBody } from "../../src/api/read-body.js";

// The body reader under the client, on streams of its own: client.test.ts drives it through the
// simulator's answers (the cap, a cut-off, a trickle); what no answer over a socket shows is a
// body already gone when reading begins (the caller's abort got there first).

describe("readCappedBody", () => {
  it("reads a body whole as text, its byte-order mark dropped", async () => {
    const body = Readable.from([Buffer.from('\uFEFF{"a":'), Buffer.from("1}")]);
    expect(await readCappedBody(body, 100)).toEqual({ complete: true, text: '{"a":1}' });
  });

  it("rejects a body destroyed before reading with the error that destroyed it", async () => {
    const body = Readable.from(["never read"]);
    const cut = new Error("aborted by the caller");
    body.on("error", () => undefined);
    body.destroy(cut);
    // Its error event is past: only the stream's state tells.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(readCappedBody(body, 100)).rejects.toBe(cut);
  });

  it("rejects a body destroyed without an error, saying so", async () => {
    const body = Readable.from(["never read"]);
    body.destroy();
    await expect(readCappedBody(body, 100)).rejects.toThrow("the answer's body was already destroyed");
  });
});
