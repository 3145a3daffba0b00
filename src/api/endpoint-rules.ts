// Rules for what the client may send the token to. Shared by the client and the configuration
// schema, so a bad value is refused the same way wherever it comes from.

export const TOKEN_PREFIX = "rf_api_";

/** Why a token cannot be used, or undefined when it can. */
export function tokenProblem(token: string): string | undefined {
  if (token.trim() === "") return "is empty";
  if (!token.startsWith(TOKEN_PREFIX)) return `must begin with ${TOKEN_PREFIX}`;
  if (/\s/.test(token)) return "must not contain spaces";
  return undefined;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why a base URL cannot carry the token, or undefined when it can (https, or http on loopback). */
export function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL";
  }
  if (url.username || url.password) return "must not contain credentials";
  if (url.search || url.hash) return "must not contain a query or fragment";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname) ? undefined : "must use https (http only on a loopback address)";
  }
  return "must be an https URL";
}
