import type { Readable } from "node:stream";

/** A body read whole, or the point where it passed the cap (the rest was not read). */
export type BodyReading = { complete: true; text: string } | { complete: false; readBytes: number };

/**
 * Reads an answer's body as UTF-8 text (a byte-order mark dropped, as undici's `text()` does), up
 * to `limitBytes`. Past the cap it stops at once and destroys the body, which drops the connection:
 * nothing more of the answer is buffered, however much the server still has to send. Rejects with
 * the body's own error (a cut-off connection, an abort).
 */
export function readCappedBody(body: Readable, limitBytes: number): Promise<BodyReading> {
  return new Promise((resolve, reject) => {
    if (body.destroyed) {
      reject(body.errored ?? new Error("the answer's body was already destroyed"));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Listeners stay on after settling, so that the error a destroyed body emits is not unhandled.
    body.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limitBytes) {
        settled = true;
        chunks.length = 0;
        body.destroy();
        resolve({ complete: false, readBytes: size });
        return;
      }
      chunks.push(chunk);
    });
    body.once("end", () => {
      if (settled) return;
      settled = true;
      resolve({ complete: true, text: new TextDecoder().decode(Buffer.concat(chunks, size)) });
    });
    body.on("error", (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}
