import { describe, expect, it } from "vitest";
import {
  BodyTooLargeError,
  ChildNotCoveredError,
  DeadlineExceededError,
  MalformedSinceError,
  NetworkError,
  RateLimitedError,
  type RequestInfo,
  RulesNotSyncedError,
  SchemaMismatchError,
  ServerError,
  TokenRejectedError,
  UnexpectedStatusError,
} from "../../src/api/errors.js";
import { type FailureAction, failureAction, isBridgeError } from "../../src/engine/failure-policy.js";
import { MaybeDeliveredError, NotDeliveredError } from "../../src/engine/sink.js";
import { StoreWriteError } from "../../src/store/errors.js";

const request: RequestInfo = {
  method: "GET",
  path: "/children/c1/events",
  baseUrl: "https://api.example.com",
};

describe("the failure policy", () => {
  it.each<[string, unknown, FailureAction["kind"], boolean]>([
    ["the sink refused the fact", new NotDeliveredError("not ready"), "await_sink", false],
    ["the sink's answer never came", new MaybeDeliveredError("dropped"), "await_sink", false],
    [
      "the data directory refused a write",
      new StoreWriteError("cannot write", "/data/x", "EROFS"),
      "storage_failing",
      true,
    ],
    ["401", new TokenRejectedError("revoked", request, 401), "token_rejected", true],
    ["429", new RateLimitedError(request, 5_000), "rate_limited", true],
    ["403", new ChildNotCoveredError("not covered", request, 403), "child_not_covered", false],
    ["409", new RulesNotSyncedError("no rules", request, 409), "rules_not_synced", false],
    [
      "an answer that cannot be read",
      new SchemaMismatchError(request, ["events: required"], 200),
      "unreadable_answer",
      true,
    ],
    ["a 5xx", new ServerError("boom", request, 503), "api_failing", true],
    ["the network", new NetworkError(request, "ECONNREFUSED", "refused"), "api_failing", true],
    ["a redirect", new UnexpectedStatusError("redirect", request, 302), "api_failing", true],
    ["an answer past its deadline", new DeadlineExceededError(request, 20_000), "api_failing", true],
    [
      "an answer past the size cap",
      new BodyTooLargeError(request, 200, 2 * 1024 * 1024, { readBytes: 2_200_000 }),
      "api_failing",
      true,
    ],
    [
      "a refused cursor that escaped the job",
      new MalformedSinceError("bad since", request, 400),
      "api_failing",
      true,
    ],
    ["a bug", new TypeError("x is undefined"), "unexpected", true],
    ["a thrown string", "oops", "unexpected", true],
  ])("%s → %s", (_what, error, kind, bridgeError) => {
    const action = failureAction(error);
    expect(action.kind).toBe(kind);
    expect(isBridgeError(action)).toBe(bridgeError);
  });

  it("carries what the loop needs: the API's delay, the unreadable answer's issues", () => {
    expect(failureAction(new RateLimitedError(request, 5_000))).toMatchObject({ retryAfterMs: 5_000 });
    expect(failureAction(new RateLimitedError(request, undefined))).toMatchObject({
      retryAfterMs: undefined,
    });
    expect(failureAction(new SchemaMismatchError(request, ["a", "b"], 200))).toMatchObject({
      issues: ["a", "b"],
      path: "/children/c1/events",
    });
  });
});
