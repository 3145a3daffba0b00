import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  DeadlineExceededError,
  NetworkError,
  type RequestInfo,
  SchemaMismatchError,
} from "../../src/api/errors.js";
import { retryTransient } from "../../src/engine/retry.js";

const request: RequestInfo = { method: "GET", path: "/children/c1/events", baseUrl: "http://127.0.0.1" };

/** How many times retryTransient tries an attempt that always fails with `error`. */
async function attemptsFor(error: Error): Promise<number> {
  let attempts = 0;
  await retryTransient(
    async () => {
      attempts++;
      throw error;
    },
    undefined,
    { minTimeoutMs: 1 },
  ).catch(() => undefined);
  return attempts;
}

describe("retries within a job", () => {
  it("retries a failure that may pass on a second try", async () => {
    expect(await attemptsFor(new NetworkError(request, "ECONNRESET", ""))).toBe(3);
  });

  it.each([
    ["an answer past its deadline", new DeadlineExceededError(request, 20_000)],
    ["an answer past the size cap", new BodyTooLargeError(request, 200, 2 * 1024 * 1024, { readBytes: 0 })],
    ["a connection that timed out", new NetworkError(request, "UND_ERR_CONNECT_TIMEOUT", "")],
    ["a socket the system timed out", new NetworkError(request, "ETIMEDOUT", "")],
  ])("never retries %s: the job would hold the loop as long again", async (_what, error) => {
    expect(await attemptsFor(error)).toBe(1);
  });

  it("never retries an answer it cannot read: the same answer would come again", async () => {
    expect(await attemptsFor(new SchemaMismatchError(request, ["events: required"], 200))).toBe(1);
  });
});
