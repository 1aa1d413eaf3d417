extension Matcher {
    /// Calls `body` with every match in `ranges` (sorted, disjoint) of `text`, each range searched
    /// with the whole text as context and a match kept only when it lies inside its range: what
    /// find in selection means, and how an index searches only its candidate regions.
    public func forEachMatch(in text: some SearchableText, ranges: [Range<Int>], capturingGroups: Bool = false,
                             _ body: (Match) throws(MatchError) -> Void) throws(MatchError) {
        for range in ranges {
            var cursor = cursor(over: text, in: range, context: 0..<text.utf8Count)
            cursor.capturesGroups = capturingGroups
            try cursor.forEachRemaining { match throws(MatchError) in
                if match.range.upperBound <= range.upperBound, match.range.lowerBound >= range.lowerBound { try body(match) }
                return true
            }
        }
    }
}
