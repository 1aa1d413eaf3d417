import TrawlMatch
import TrawlText

extension FindNavigator {
    /// Brings the match set up to date after `edits` (made in order; the document already holds
    /// the result), re-matching only what they can have changed:
    ///
    /// 1. matches touching an edit are dropped and later ones shifted (O(log n) each);
    /// 2. each inserted range, in the final text, is widened to what can depend on it — its lines
    ///    for a line-bounded matcher; otherwise from a kept match no attempt reaching the edit can
    ///    start before (the text's start when a match's length is unbounded) forward until a new
    ///    match coincides with a kept one beyond the edit's lookbehind — and that is matched again;
    ///    with find in selection, the scopes the edit can reach are searched again.
    ///
    /// The result equals a full search (a property the tests check after thousands of edits).
    func update(after edits: [TextEdit], matcher: any Matcher) throws(MatchError) {
        let text = document.text
        var dirty: [Range<Int>] = []
        for edit in edits {
            matches.removeMatches(touching: edit.replacedRange, shiftingLaterBy: edit.lengthDelta)
            dirty = dirty.map { edit.transform($0.lowerBound, bias: .backward)..<edit.transform($0.upperBound, bias: .forward) }
            dirty.append(edit.insertedRange)
        }
        let locality = matcher.locality
        let ranges = scopes ?? [0..<text.utf8Count]
        if locality.isLineBounded {
            for region in lineRegions(around: dirty, in: text) {
                let pieces = ranges.compactMap { range -> Range<Int>? in
                    let lower = max(range.lowerBound, region.lowerBound), upper = min(range.upperBound, region.upperBound)
                    // An empty piece matters only at the text's end (its empty match).
                    guard lower < upper || (lower == upper && upper == text.utf8Count && range.upperBound == upper) else { return nil }
                    return lower..<upper
                }
                let found = try FindNavigator.scan(matcher, text, pieces).filter { match in
                    ranges.contains { $0.lowerBound <= match.lowerBound && match.upperBound <= $0.upperBound }
                }
                matches.replace(startingIn: region, includesEnd: region.upperBound == text.utf8Count, with: found, delta: 0)
            }
            return
        }
        if let scopes {
            // Find in selection: each scope is searched as a whole text, so only the scopes an
            // edit can reach (through the matcher's lookbehind and lookahead) are searched again,
            // with the scopes they touch (an empty match where two meet belongs to both).
            let behind = locality.lookbehind.map { $0 + 1 } ?? Int.max / 2
            let ahead = locality.lookahead.map { $0 + 1 } ?? Int.max / 2
            let reached = scopes.map { scope in
                dirty.contains { $0.lowerBound <= scope.upperBound + ahead && $0.upperBound + behind >= scope.lowerBound }
            }
            var index = 0
            while index < scopes.count {
                var end = index
                while end + 1 < scopes.count && scopes[end + 1].lowerBound == scopes[end].upperBound { end += 1 }
                if reached[index...end].contains(true) {
                    let group = Array(scopes[index...end])
                    let span = group[0].lowerBound..<group[group.count - 1].upperBound
                    matches.replace(startingIn: span, includesEnd: true, with: try FindNavigator.scan(matcher, text, group), delta: 0)
                }
                index = end + 1
            }
            return
        }
        guard let lookbehind = locality.lookbehind, let first = dirty.map(\.lowerBound).min(),
              let last = dirty.map(\.upperBound).max() else {
            matches = MatchSet(try FindNavigator.scan(matcher, text, ranges))
            return
        }
        // Restart where no attempt can reach the first edit: at a kept match starting more than a
        // match's length and lookahead before it (the full search starts a match there too). When
        // that reach is unbounded (`x\n*y` finds a match ending at a `y` typed anywhere later),
        // restart at the text's start. Either way, stop as soon as a new match coincides with a
        // kept one beyond the edits' reach.
        var restart = 0
        if let length = locality.maxMatchLength, let lookahead = locality.lookahead {
            let safe = first - length - lookahead - 1
            var before = matches.firstIndex(startingAtOrAfter: safe + 1) - 1
            // Not where a match ended: a fresh search there could find an empty match the full
            // search (just after that match) does not.
            while before > 0 && matches[before - 1].upperBound == matches[before].lowerBound { before -= 1 }
            if safe > 0, before >= 0 { restart = matches[before].lowerBound }
        }
        var cursor = matcher.cursor(over: text, in: restart..<text.utf8Count, context: 0..<text.utf8Count)
        var found: [Range<Int>] = []
        while let match = try cursor.next() {
            if match.range.lowerBound >= last + lookbehind, matches.index(of: match.range) != nil {
                // From a match both searches find beyond the edits' reach, they agree to the end.
                matches.replace(startingIn: restart..<match.range.lowerBound, includesEnd: false, with: found, delta: 0)
                return
            }
            found.append(match.range)
        }
        matches.replace(startingIn: restart..<text.utf8Count, includesEnd: true, with: found, delta: 0)
    }

    /// The whole lines holding each range (a region ends after its line break, or at the text's
    /// end), merged where they touch.
    private func lineRegions(around ranges: [Range<Int>], in text: Rope) -> [Range<Int>] {
        ranges.map { range in
            text.startOfLine(containing: range.lowerBound)..<text.endOfLine(containing: range.upperBound)
        }.mergingOverlaps(joiningTouching: true)
    }
}
