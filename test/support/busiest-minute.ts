/**
 * The most of `times` (epoch ms) that fall in any 60 s, half-open as a sliding limiter counts
 * (two requests exactly 60 s apart are in different minutes): how the API's limit is judged.
 */
export function busiestMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while ((sorted[last] as number) - (sorted[first] as number) >= 60_000) first++;
    max = Math.max(max, last - first + 1);
  }
  return max;
}
