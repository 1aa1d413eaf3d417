import TrawlText

/// Keeps only matches whose ends are word boundaries, retrying one scalar after a rejected start
/// (as VS Code does).
///
/// An end is a boundary when it is the edge of the searched range, or the character outside it or
/// the match's own character there is a separator (see ``WordSeparators``). So `foo` matches in
/// `foo.bar` and `(foo)`, not in `foobar`; and `.bar` matches in `foo.bar`.
final class WholeWordFilter: FilteringEngine {
    let base: any MatchEngine
    let range: Range<Int>
    let separators: WordSeparators
    /// Whether a match of the base can start inside another (false for a literal that cannot
    /// overlap itself): only then can a retry one scalar after a rejected start find a match
    /// that going on from the rejected match's end would miss.
    let matchesCanOverlap: Bool

    init(base: any MatchEngine, range: Range<Int>, separators: WordSeparators, matchesCanOverlap: Bool = true) {
        self.base = base
        self.range = range
        self.separators = separators
        self.matchesCanOverlap = matchesCanOverlap
    }

    /// When no retry can find more, the base's own walk with the rejected matches left out.
    func forEachRemaining(_ body: (Match) throws(MatchError) -> Bool) throws(MatchError) {
        guard !matchesCanOverlap else { return try forEachNext(body) }
        try base.forEachRemaining { (match) throws(MatchError) -> Bool in
            guard isWholeWord(match.range) else { return true }
            return try body(match)
        }
    }

    func next() throws(MatchError) -> Match? {
        while let match = try base.next() {
            if isWholeWord(match.range) { return match }
            guard match.range.lowerBound < range.upperBound else { return nil }
            let next = withBytes(in: match.range.lowerBound..<min(range.upperBound, match.range.lowerBound + 4)) { bytes in
                // A CRLF is one line break: never retry between its CR and its LF.
                bytes[0] == 0x0D && bytes.count > 1 && bytes[1] == 0x0A ? 2 : UTF8Bytes.scalarLength(lead: bytes[0])
            }
            base.reposition(to: match.range.lowerBound + next)
        }
        return nil
    }

    private func isWholeWord(_ match: Range<Int>) -> Bool {
        if !match.isEmpty, let left = asciiEdge(at: match.lowerBound, outside: -1),
           let right = asciiEdge(at: match.upperBound - 1, outside: 1) {
            return left && right
        }
        let before = match.lowerBound > range.lowerBound
            ? withBytes(in: max(range.lowerBound, match.lowerBound - 4)..<match.lowerBound, UTF8Scalars.last) : nil
        let after = match.upperBound < range.upperBound
            ? withBytes(in: match.upperBound..<min(range.upperBound, match.upperBound + 4), UTF8Scalars.first) : nil
        var first: Unicode.Scalar?, last: Unicode.Scalar?
        if !match.isEmpty {
            first = withBytes(in: match.lowerBound..<min(match.upperBound, match.lowerBound + 4), UTF8Scalars.first)
            last = withBytes(in: max(match.lowerBound, match.upperBound - 4)..<match.upperBound, UTF8Scalars.last)
        }
        let left = before.map { separators.isSeparator($0) } ?? true || first.map { separators.isSeparator($0) } ?? false
        let right = after.map { separators.isSeparator($0) } ?? true || last.map { separators.isSeparator($0) } ?? false
        return left && right
    }
}

extension WholeWordFilter {
    /// Whether the match's edge at `offset` (its first byte, with `outside` -1, or its last, with
    /// 1) is a word boundary, read from two bytes when both characters there are ASCII; nil
    /// otherwise (then the characters are decoded).
    private func asciiEdge(at offset: Int, outside: Int) -> Bool? {
        let neighbour = offset + outside
        guard neighbour >= range.lowerBound && neighbour < range.upperBound else { return true }
        return withBytes(in: min(offset, neighbour)..<(max(offset, neighbour) + 1)) { bytes -> Bool? in
            let own = bytes[outside < 0 ? 1 : 0], other = bytes[outside < 0 ? 0 : 1]
            guard own < 0x80, other < 0x80 else { return nil }
            return separators.isSeparator(Unicode.Scalar(other)) || separators.isSeparator(Unicode.Scalar(own))
        }
    }
}
