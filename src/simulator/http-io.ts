import type { ServerResponse } from "node:http";

/** What an endpoint answers, before any fault is applied to it. */
export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function errorResponse(status: number, error: string, headers?: Record<string, string>): ApiResponse {
  return headers ? { status, body: { error }, headers } : { status, body: { error } };
}

/** Writes a complete JSON answer; a client that already went away is not an error here. */
export function sendJson(res: ServerResponse, response: ApiResponse): void {
  sendText(res, response.status, JSON.stringify(response.body), response.headers);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, {
    ...headers,
    "content-type": JSON_CONTENT_TYPE,
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
  });
  res.end(text);
}
