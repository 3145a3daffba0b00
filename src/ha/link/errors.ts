import { ERR_CANNOT_CONNECT, ERR_CONNECTION_LOST, ERR_INVALID_AUTH } from "home-assistant-js-websocket";

// home-assistant-js-websocket rejects with numbers (1 cannot connect, 2 invalid auth, 3
// connection lost) or plain objects ({code, message} from Home Assistant): they become real,
// typed Errors here, before any retry logic or log line sees them.

export class HomeAssistantError extends Error {
  override name = "HomeAssistantError";
  /** The library's number or Home Assistant's error code. */
  readonly code: string | number | undefined;

  constructor(message: string, code?: string | number) {
    super(message);
    this.code = code;
  }
}

/** Home Assistant refused the token (invalid, or revoked). */
export class HomeAssistantAuthError extends HomeAssistantError {
  override name = "HomeAssistantAuthError";
}

/** The token works but its user is not an administrator: states and events cannot be written. */
export class HomeAssistantNotAdminError extends HomeAssistantError {
  override name = "HomeAssistantNotAdminError";
}

/** Not connected, or the connection dropped. */
export class HomeAssistantConnectionError extends HomeAssistantError {
  override name = "HomeAssistantConnectionError";
}

/** Not connected when a command was to be sent: it never left. */
export class HomeAssistantNotConnectedError extends HomeAssistantConnectionError {
  override name = "HomeAssistantNotConnectedError";
}

/** A REST call answered with an error status. */
export class HomeAssistantHttpError extends HomeAssistantError {
  override name = "HomeAssistantHttpError";
  readonly status: number;

  constructor(message: string, status: number) {
    super(message, status);
    this.status = status;
  }

  /** 5xx (502 while Core restarts behind the Supervisor), 429: worth another try. */
  get transient(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

const libraryMessages: Record<number, string> = {
  [ERR_CANNOT_CONNECT]: "cannot connect to Home Assistant",
  [ERR_INVALID_AUTH]: "Home Assistant rejected the token",
  [ERR_CONNECTION_LOST]: "connection to Home Assistant lost",
};

/** Any rejection of the websocket library as an Error of the right class. */
export function toHomeAssistantError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  if (typeof reason === "number") {
    const message = libraryMessages[reason] ?? `Home Assistant websocket error ${reason}`;
    if (reason === ERR_INVALID_AUTH) return new HomeAssistantAuthError(message, reason);
    return new HomeAssistantConnectionError(message, reason);
  }
  if (reason && typeof reason === "object") {
    // A command's error result: {code, message}; the library's own lost-connection result
    // wraps it as {type: "result", success: false, error: {code, message}}.
    const inner = (reason as { error?: unknown }).error ?? reason;
    const { code, message } = inner as { code?: unknown; message?: unknown };
    const text = typeof message === "string" ? message : "Home Assistant refused the command";
    if (code === ERR_CONNECTION_LOST)
      return new HomeAssistantConnectionError(libraryMessages[code] ?? text, code);
    return new HomeAssistantError(
      text,
      typeof code === "string" || typeof code === "number" ? code : undefined,
    );
  }
  return new HomeAssistantError(`Home Assistant error: ${String(reason)}`);
}
