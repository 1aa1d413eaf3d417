/// Decides an anchored attempt of a ``LeadingRun`` pattern without PCRE2 when the pattern is only
/// the repeat, the literal and at most a final `\b` (as `[a-z]+ing\b` and `\w+Error\b` are): the
/// match is the run from the start up to the place the repeat would stop (the last place for a
/// greedy repeat, the first for a lazy one, the run's end for a possessive one) where the literal
/// follows and the boundary holds. A call into PCRE2 costs several times what these few byte
/// compares do, and such patterns have an attempt per occurrence of a common literal.
///
/// Only ASCII is decided here: a run or a boundary that reaches a byte beyond ASCII (`\w` and `\b`
/// are Unicode-aware) is left to PCRE2.
struct RunMatchDecision: Sendable {
    enum Outcome: Equatable {
        /// The match from the start ends here.
        case match(end: Int)
        /// No match starts at the start.
        case none
        /// Left to PCRE2.
        case undecided
    }

    private let units: [UInt16]
    private let minimum: Int
    private let kind: LeadingRun.Kind
    private let checksWordBoundary: Bool
    /// The class's ASCII members (see ``RunStarts/asciiMembers``).
    private let members: ASCIISet
    /// Whether the literal's characters are all in the class (as `ing` is in `[a-z]`): then an
    /// occurrence inside a run ends inside it too, and the last places of a run need no look.
    private let literalInClass: Bool

    /// Nil unless the pattern ends after the literal or its `\b` and the literal is ASCII without
    /// CR or LF (where lines end is left to PCRE2's handling of lines).
    init?(run: LeadingRun, members: ASCIISet) {
        guard let ending = run.ending,
              run.literal.units.allSatisfy({ $0 & 0xFF < 0x80 && $0 & 0xFF != 0x0A && $0 & 0xFF != 0x0D }) else { return nil }
        units = run.literal.units
        minimum = run.minimum
        kind = run.kind
        checksWordBoundary = ending == .wordBoundary
        self.members = members
        literalInClass = units.allSatisfy { PrefilterLiteral.bytes(of: $0).allSatisfy(members.contains) }
    }

    /// The attempt at `start`, where class characters run at least up to `occurrence`: the first
    /// occurrence of the literal at or after `start`. The subject ends at `subjectEnd`; `byte`
    /// reads the text.
    func decide(start: Int, occurrence: Int, subjectEnd: Int, byte: (Int) -> UInt8) -> Outcome {
        var runEnd = occurrence
        while runEnd < subjectEnd {
            let value = byte(runEnd)
            guard value < 0x80 else { return .undecided }
            guard members.contains(value) else { break }
            runEnd += 1
        }
        // No place before the occurrence holds the literal: the strategy keeps "no occurrence in
        // [start, occurrence)" true (it searches on from past the last occurrence it tried, never
        // tries a run start twice, and a match ends past its occurrence), so the literal can
        // first follow the repeat there.
        let lowest = max(start + minimum, occurrence), highest = min(literalInClass ? runEnd - units.count : runEnd, subjectEnd - units.count)
        guard lowest <= highest else { return .none }
        switch kind {
        case .greedy:
            var end = highest
            while end >= lowest {
                switch fits(at: end, subjectEnd: subjectEnd, byte: byte) {
                case true?: return .match(end: end + units.count)
                case false?: end -= 1
                case nil: return .undecided
                }
            }
        case .lazy:
            for end in lowest...highest {
                switch fits(at: end, subjectEnd: subjectEnd, byte: byte) {
                case true?: return .match(end: end + units.count)
                case false?: continue
                case nil: return .undecided
                }
            }
        case .possessive:
            // The repeat takes the whole run: the literal must come after it.
            guard !literalInClass, runEnd == highest else { return .none }
            switch fits(at: runEnd, subjectEnd: subjectEnd, byte: byte) {
            case true?: return .match(end: runEnd + units.count)
            case false?: return .none
            case nil: return .undecided
            }
        }
        return .none
    }

    /// Whether the literal, and then the boundary, hold at `offset`; nil when the boundary's
    /// character is beyond ASCII.
    private func fits(at offset: Int, subjectEnd: Int, byte: (Int) -> UInt8) -> Bool? {
        var index = 0
        while index < units.count {
            guard PrefilterLiteral.unit(units[index], matches: byte(offset + index)) else { return false }
            index += 1
        }
        guard checksWordBoundary else { return true }
        let after = offset + units.count
        let wordBefore = Self.isWord(byte(after - 1))
        guard after < subjectEnd else { return wordBefore }
        let next = byte(after)
        guard next < 0x80 else { return nil }
        return wordBefore != Self.isWord(next)
    }

    /// An ASCII word character of `\w`.
    static func isWord(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (0x30...0x39).contains(byte) || byte == 0x5F
    }
}
