// What Home Assistant's update dialog shows of an app's CHANGELOG.md, by core's own rule, so that
// the changelog's test can see what a parent will read. From Home Assistant 2026.11,
// homeassistant/components/hassio/update.py, SupervisorAddonUpdateEntity.async_release_notes:
//
//     regex_pattern = re.compile(
//         rf"^#* {re.escape(self.latest_version)}\n"
//         rf"(?:^(?!#* {re.escape(self.installed_version)}).*\n)*",
//         re.MULTILINE,
//     )
//     match = regex_pattern.search(changelog)
//     return match.group(0) if match else changelog
//
// Python's MULTILINE `^` is the start of the text or the place after a "\n", and its `.` anything
// but "\n". JavaScript's `^` with the m flag also follows "\r", U+2028 and U+2029, and its `.`
// stops at them, so both are spelt out here: `(?<![^\n])` and `[^\n]`.

/** re.escape of Python: every character a pattern could read as syntax gets a backslash. */
const reEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

const LINE_START = "(?<![^\\n])";

/**
 * The notes Home Assistant shows for an update from `installed` to `latest`: from the line that
 * is `latest` alone after its `#`s down to, not including, the first line that begins with
 * `installed` after its `#`s; the whole changelog when no heading is `latest` alone.
 */
export function releaseNotes(changelog: string, latest: string, installed: string): string {
  const rule = new RegExp(
    `${LINE_START}#* ${reEscape(latest)}\\n(?:${LINE_START}(?!#* ${reEscape(installed)})[^\\n]*\\n)*`,
  );
  return rule.exec(changelog)?.[0] ?? changelog;
}
