/**
 * An instant as the family reads it: a date and a time in their language's formats, in the
 * household's time zone (`28 novembre 2026 à 14:05`, `November 28, 2026 at 2:05 PM`). Through
 * Intl, which pages in the runtime's locale data (a few MiB): only when a text needs a moment,
 * which a running bridge seldom writes (a notification).
 */
export function formatMoment(at: number, language: string, timeZone: string | undefined): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" };
  try {
    return new Intl.DateTimeFormat(language, { ...options, ...(timeZone ? { timeZone } : {}) }).format(at);
  } catch {
    // A zone or a language the runtime does not know: the runtime's own, rather than nothing.
    return new Intl.DateTimeFormat(undefined, options).format(at);
  }
}
