import { describe, expect, it } from "vitest";
import { baseUrlProblem, isLoopbackHost, tokenProblem } from "../../src/api/endpoint-rules.js";
import { parseRetryAfter } from "../../src/api/retry-after.js";

describe("tokenProblem", () => {
  it.each([
    ["", "is empty"],
    ["   ", "is empty"],
    ["abc_123", "must begin with rf_api_"],
    ["rf_api_has space", "must not contain spaces"],
  ])("refuses %j", (token, problem) => {
    expect(tokenProblem(token)).toBe(problem);
  });

  it("accepts a household token", () => {
    expect(tokenProblem("rf_api_0123456789abcdef")).toBeUndefined();
  });
});

describe("baseUrlProblem", () => {
  it.each([
    ["https://api.example.com/v1", undefined],
    ["http://127.0.0.1:8080/api/v1", undefined],
    ["http://127.5.0.9/api", undefined],
    ["http://localhost:3000", undefined],
    ["http://[::1]:3000/", undefined],
    ["http://api.example.com/v1", "must use https (http only on a loopback address)"],
    ["http://192.168.1.4/v1", "must use https (http only on a loopback address)"],
    ["ftp://api.example.com", "must be an https URL"],
    ["not a url", "is not a URL"],
    ["https://user:pw@api.example.com", "must not contain credentials"],
    ["https://api.example.com/v1?x=1", "must not contain a query or fragment"],
  ])("%s", (url, problem) => {
    expect(baseUrlProblem(url)).toBe(problem);
  });

  it("knows loopback hosts", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("128.0.0.1")).toBe(false);
    expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates, ignores the rest", () => {
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(parseRetryAfter("12", now)).toBe(12_000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(["5"], now)).toBe(5_000);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
