import { ERR_CANNOT_CONNECT, ERR_CONNECTION_LOST, ERR_INVALID_AUTH } from "home-assistant-js-websocket";
import { describe, expect, it } from "vitest";
import {
  HomeAssistantAuthError,
  HomeAssistantConnectionError,
  HomeAssistantError,
  HomeAssistantHttpError,
  HomeAssistantNotAdminError,
  HomeAssistantNotConnectedError,
  toHomeAssistantError,
} from "../../../src/ha/link/errors.js";

// What home-assistant-js-websocket rejects with (its numbers, Home Assistant's {code, message},
// its own lost-connection result) made into Errors the sink can tell apart: a refused token stops
// the bridge, a lost link is retried, a command Home Assistant refused is neither.

describe("a rejection of the websocket library, as an Error", () => {
  it("is a refused token when the library says the auth is invalid", () => {
    const error = toHomeAssistantError(ERR_INVALID_AUTH);
    expect(error).toBeInstanceOf(HomeAssistantAuthError);
    expect(error).toMatchObject({
      name: "HomeAssistantAuthError",
      message: "Home Assistant rejected the token",
      code: ERR_INVALID_AUTH,
    });
  });

  it("is a connection error for the library's other numbers, known or not", () => {
    expect(toHomeAssistantError(ERR_CANNOT_CONNECT)).toMatchObject({
      name: "HomeAssistantConnectionError",
      message: "cannot connect to Home Assistant",
      code: ERR_CANNOT_CONNECT,
    });
    const unknown = toHomeAssistantError(5);
    expect(unknown).toBeInstanceOf(HomeAssistantConnectionError);
    expect(unknown).toMatchObject({ message: "Home Assistant websocket error 5", code: 5 });
  });

  it("is a connection error for a command the lost connection took (the library's own result)", () => {
    // What the library rejects a pending command with when the socket closes.
    const error = toHomeAssistantError({
      type: "result",
      success: false,
      error: { code: ERR_CONNECTION_LOST, message: "Connection lost" },
    });
    expect(error).toBeInstanceOf(HomeAssistantConnectionError);
    expect(error).toMatchObject({ message: "connection to Home Assistant lost", code: ERR_CONNECTION_LOST });
  });

  it("is Home Assistant's refusal, with its code and words, for a command it answered with an error", () => {
    const error = toHomeAssistantError({ code: "unauthorized", message: "Unauthorized" });
    expect(error).toBeInstanceOf(HomeAssistantError);
    expect(error).not.toBeInstanceOf(HomeAssistantConnectionError);
    expect(error).toMatchObject({
      name: "HomeAssistantError",
      message: "Unauthorized",
      code: "unauthorized",
    });
  });

  it("says the command was refused when the answer has no words, and keeps only a code it can log", () => {
    expect(toHomeAssistantError({ code: { nested: true } })).toMatchObject({
      message: "Home Assistant refused the command",
      code: undefined,
    });
    expect(toHomeAssistantError({ error: { code: 404 } })).toMatchObject({
      message: "Home Assistant refused the command",
      code: 404,
    });
  });

  it("keeps an Error as it is, and names anything else", () => {
    const original = new TypeError("socket hang up");
    expect(toHomeAssistantError(original)).toBe(original);
    expect(toHomeAssistantError("gone")).toMatchObject({
      name: "HomeAssistantError",
      message: "Home Assistant error: gone",
      code: undefined,
    });
    expect(toHomeAssistantError(undefined).message).toBe("Home Assistant error: undefined");
  });
});

describe("the errors the bridge raises itself", () => {
  it("name their kind, which log lines show", () => {
    expect(new HomeAssistantNotAdminError("not an administrator")).toMatchObject({
      name: "HomeAssistantNotAdminError",
      message: "not an administrator",
    });
    const notConnected = new HomeAssistantNotConnectedError("not connected to Home Assistant");
    expect(notConnected).toBeInstanceOf(HomeAssistantConnectionError);
    expect(notConnected.name).toBe("HomeAssistantNotConnectedError");
  });

  it("take another try at a REST status only for 5xx and 429", () => {
    const transient = (status: number) => new HomeAssistantHttpError(`status ${status}`, status).transient;
    expect([500, 502, 503, 429].map(transient)).toEqual([true, true, true, true]);
    expect([400, 401, 403, 404, 499].map(transient)).toEqual([false, false, false, false, false]);
    expect(new HomeAssistantHttpError("bad gateway", 502)).toMatchObject({
      name: "HomeAssistantHttpError",
      status: 502,
      code: 502,
    });
  });
});
