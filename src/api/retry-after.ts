/** Retry-After in seconds or as an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now: number = Date.now()): number | undefined {
  const text = headerText(value);
  if (text === undefined) return undefined;
  // Infinity for a number too long to hold: the caller's bound applies to it like to any other.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The header's value as sent (the first, when repeated), trimmed; undefined when absent or blank. */
export function headerText(value: unknown): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== "string" || text.trim() === "") return undefined;
  return text.trim();
}
