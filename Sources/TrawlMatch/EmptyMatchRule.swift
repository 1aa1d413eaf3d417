/// Whether an empty match is found where the match before it ended: the one point where grep
/// tools and editors part ways on patterns that can match nothing (`\d*`, `[a-z]*`, `x?`).
///
/// In `10.243.30.10`, `\d*` finds `10`, `243`, `30`, `10` under ``skippedWhereAMatchEnded`` (4
/// matches, as `rg` does), and also the empty matches at the three dots under
/// ``skippedWhereAMatchEndedItsLine`` (7, as VS Code's find does). Either way `.*` finds each line
/// once, no empty match is found twice, and after an empty match the search goes on from the
/// next character.
public enum EmptyMatchRule: Hashable, Sendable {
    /// Never where the previous match ended: ripgrep's (Rust's regex), sd's and `rg -P`'s rule.
    case skippedWhereAMatchEnded
    /// Only where the previous match ended at the end of its line (before its LF or CRLF, or at
    /// the searched text's end) — for a pattern matched across lines, only at the searched text's
    /// end: VS Code's find, which searches each line (or the whole text) as its own string.
    case skippedWhereAMatchEndedItsLine
}
