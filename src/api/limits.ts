// The bounds the bridge holds every API answer to, whatever the server does. A hostile or broken
// server must cost the bridge one failed read, never the loop, the memory or a pause of years.

/**
 * The longest one API request may take, from the moment it leaves to the last byte of its body:
 * headers and body together, 20 s. undici's own timeouts measure only the wait for the headers
 * and the gap between two chunks of the body, so a body trickling one byte every few seconds never
 * met them and held the bridge's single loop, every child's reads behind it, for as long as the
 * server liked. 20 s is far above what a page of 100 events takes on a slow link (about 50 KB),
 * and keeps the other children's reads at most that late. Breaking it fails the read once, with a
 * DeadlineExceededError, and is never retried within the same job.
 */
export const REQUEST_DEADLINE_MS = 20_000;

/**
 * The largest answer body the bridge reads, 2 MiB: some forty times a full page of 100 events
 * (about 50 KB), far below what hurts a Raspberry Pi. A content-length above it is refused before
 * any of the body is read; a body streamed without one is read until it passes the cap, then the
 * connection is dropped, so that no more of it is buffered. Either fails the read once, with a
 * BodyTooLargeError, never retried within the same job.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * The longest the bridge pauses every request of the token on the API's word, 10 minutes. A
 * Retry-After (in seconds or as an HTTP date) asking for more is held to this, with a warning
 * saying what the API asked: a `Retry-After: 99999999`, or a date in 2100, would otherwise have
 * paused the bridge for years, and kept it paused across restarts, since the pause is stored. A
 * stored pause that ends further ahead than this is ignored when the bridge starts.
 */
export const MAX_PAUSE_MS = 10 * 60_000;
