/// A pattern that starts with one character class repeated without an upper bound, followed at
/// once by the literal every match contains: `X+L…`, `X*L…` or `X{n,}L…` (greedy, lazy or
/// possessive), with no top-level alternation.
///
/// Such a pattern can only start a match where a run of `X` characters starts (or where the search
/// starts): an attempt one character into a run reaches a subset of the ends an attempt at the
/// character before reaches, with the same rest of the pattern after them, so it can only succeed
/// where that earlier one does. And the run that starts a match ends right before an occurrence of
/// `L`. So the run starts before the literal's occurrences are the only places to try, once each —
/// Perl's "skip" optimisation for leading `\w+`, driven by the literal prefilter as ripgrep's inner
/// literals are. PCRE2 alone retries at every character of a run, which costs a run's length each.
struct LeadingRun: Sendable {
    /// How a repeat takes characters.
    enum Kind: Sendable {
        case greedy, lazy, possessive
    }

    /// What the pattern holds after the literal, when it is this simple.
    enum Ending: Sendable {
        /// Nothing: the pattern ends with the literal.
        case nothing
        /// `\b` and nothing more.
        case wordBoundary
    }

    /// The repeated class as written (`[a-z]`, `\w`).
    let classPattern: String
    /// The literal that follows the repeat.
    let literal: PrefilterLiteral
    /// The least number of class characters the repeat takes.
    let minimum: Int
    /// Whether the repeat is greedy, lazy or possessive.
    let kind: Kind
    /// What follows the literal, when it is nothing or `\b`; nil for anything else.
    let ending: Ending?

    /// Whether `literal` is what `pattern` spells from `offset` on, with no quantifier on its last
    /// character (then each unit is one pattern byte: caseless units as their lowercase letter).
    static func literal(_ literal: PrefilterLiteral, follows offset: Int, in pattern: [UInt8]) -> Bool {
        let end = offset + literal.units.count
        guard end <= pattern.count else { return false }
        let metacharacters = Set("\\[](){}.*+?|^$".utf8)
        for (unit, byte) in zip(literal.units, pattern[offset..<end]) {
            guard !metacharacters.contains(byte) else { return false }
            let wanted = unit & PrefilterLiteral.caselessFlag != 0 ? (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) : byte
            guard UInt8(truncatingIfNeeded: unit) == wanted else { return false }
        }
        if end < pattern.count, Set("*+?{".utf8).contains(pattern[end]) { return false }
        return true
    }

    /// What `pattern` holds after the literal that starts at `offset`, when it is nothing or `\b`.
    static func ending(after literal: PrefilterLiteral, at offset: Int, in pattern: [UInt8]) -> Ending? {
        let rest = pattern[(offset + literal.units.count)...]
        if rest.isEmpty { return .nothing }
        return rest.elementsEqual("\\b".utf8) ? .wordBoundary : nil
    }
}
