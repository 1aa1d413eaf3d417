import TrawlMatch
import TrawlText

extension FindNavigator {
    /// Whether ``findNext()`` would select a match (with wrap on, whenever there is one).
    public var canGoForward: Bool {
        nextIndex(wrapping: wraps) != nil
    }

    /// Whether ``findPrevious()`` would select a match.
    public var canGoBack: Bool {
        previousIndex(wrapping: wraps) != nil
    }

    /// Selects the next match after the selection's end (wrapping to the first when allowed) and
    /// returns its index, or `nil` when there is none. An empty match at a caret is passed over.
    /// - Throws: ``FindActionError/findDisabled`` when find is disabled.
    @discardableResult
    public func findNext() throws(FindActionError) -> Int? {
        guard !policy.isFindDisabled else { throw .findDisabled }
        guard let index = nextIndex(wrapping: wraps) else { return nil }
        document.select(matches[index])
        return index
    }

    /// Selects the last match that starts before the selection's start (wrapping to the last
    /// match when allowed) and returns its index.
    /// - Throws: ``FindActionError/findDisabled`` when find is disabled.
    @discardableResult
    public func findPrevious() throws(FindActionError) -> Int? {
        guard !policy.isFindDisabled else { throw .findDisabled }
        guard let index = previousIndex(wrapping: wraps) else { return nil }
        document.select(matches[index])
        return index
    }

    func nextIndex(wrapping: Bool) -> Int? {
        let selection = document.primarySelection
        var index = matches.firstIndex(startingAtOrAfter: selection.upperBound)
        // An empty match at the caret is where the search already is: pass over it.
        while index < matches.count, selection.isEmpty, matches[index] == selection { index += 1 }
        if index < matches.count { return index }
        // While a background search runs, later matches may not be known yet: no wrap.
        return wrapping && !matches.isEmpty && !isSearching ? 0 : nil
    }

    func previousIndex(wrapping: Bool) -> Int? {
        let selection = document.primarySelection
        // The last match that ends at or before the selection's start (from a caret inside a
        // match, the one before it), but not an empty match at the caret itself.
        var index = matches.firstIndex(endingAfter: selection.lowerBound) - 1
        if index >= 0, selection.isEmpty, matches[index] == selection { index -= 1 }
        if index >= 0 { return index }
        return wrapping && !matches.isEmpty && !isSearching ? matches.count - 1 : nil
    }

    /// Selects every match (one selection each; the current match, or the first, is primary).
    /// - Throws: ``FindActionError/findDisabled`` when find is disabled.
    public func selectAllMatches() throws(FindActionError) {
        guard !policy.isFindDisabled else { throw .findDisabled }
        guard !matches.isEmpty else { return }
        document.select(matches.ranges, primary: currentMatchIndex ?? 0)
    }

    /// Makes the primary selection's text the query (nothing happens for an empty selection).
    /// - Throws: ``FindActionError/findDisabled`` when find is disabled.
    public func useSelectionForFind() throws(FindActionError) {
        guard !policy.isFindDisabled else { throw .findDisabled }
        let selection = document.primarySelection
        guard !selection.isEmpty else { return }
        // The query sees line breaks as line feeds (a CR in it would never find a CRLF's), and a
        // regex query finds the text literally.
        let text = String(document.text[selection].map { $0 == "\r\n" ? "\n" : $0 })
        query = options.syntax == .regex ? LiteralMatcher.escapedPattern(text) : text
    }
}
