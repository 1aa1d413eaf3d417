import TrawlMatch
import TrawlText

extension FindNavigator {
    /// The replacement as a template for the current matcher: regex templates in regex mode, the
    /// text as typed otherwise.
    func replacementTemplate(for matcher: any Matcher) throws(FindActionError) -> ReplacementTemplate {
        guard options.syntax == .regex else { return ReplacementTemplate(literal: replacement, preserveCase: preservesCase) }
        do {
            return try matcher.template(replacement, preserveCase: preservesCase)
        } catch {
            throw .noUsableQuery(.invalidReplacement(message: error.message, offset: error.offset))
        }
    }

    private func checkReplace() throws(FindActionError) -> any Matcher {
        guard !policy.isReplaceDisabled else { throw .replaceDisabled }
        guard let matcher else { throw .noUsableQuery(diagnostic ?? .emptyQuery) }
        // After a search gave up, the match set is not the document's.
        if let diagnostic, case .tooExpensive = diagnostic { throw .noUsableQuery(diagnostic) }
        return matcher
    }

    /// Whether the document's line breaks are CRLF (its first one is): then a line feed in a
    /// replacement is written as CRLF, as VS Code writes in the document's line ending.
    private var usesCRLF: Bool {
        let text = document.text
        let end = text.endOfLine(containing: 0)
        return end >= 2 && text.byte(at: end - 1) == 0x0A && text.byte(at: end - 2) == 0x0D
    }

    private func adaptingLineBreaks(_ replacement: String, crlf: Bool) -> String {
        guard crlf, replacement.utf8.contains(0x0A) else { return replacement }
        return String(replacement.map { $0 == "\n" ? "\r\n" : $0 })
    }

    /// Replaces the current match when it is selected, else selects the next match (the two-step
    /// replace editors use). Returns whether a replacement was made.
    /// - Throws: ``FindActionError/replaceDisabled`` when replace is disabled, or
    ///   ``FindActionError/noUsableQuery(_:)``.
    @discardableResult
    public func replace() throws(FindActionError) -> Bool {
        let matcher = try checkReplace()
        let selection = document.primarySelection
        guard matches.index(of: selection) != nil else {
            try findNext()
            return false
        }
        let template = try replacementTemplate(for: matcher)
        // The match again, with its groups, exactly where it is.
        let text = document.text
        var cursor = matcher.cursor(over: text, in: selection.lowerBound..<text.utf8Count, context: 0..<text.utf8Count)
        cursor.capturesGroups = !template.isStatic
        guard let match = try? cursor.next(), match.range == selection else {
            try findNext()
            return false
        }
        let replacement = adaptingLineBreaks(template.expand(match, in: text), crlf: usesCRLF)
        document.groupingUndo {
            document.apply([(selection, replacement)])
            let end = selection.lowerBound + replacement.utf8.count
            document.select(end..<end)
        }
        return true
    }

    /// Replaces the current match (when selected) and selects the next one, never a match inside
    /// the text just inserted.
    /// - Throws: as ``replace()``.
    public func replaceAndFind() throws(FindActionError) {
        if try replace() { try findNext() }
    }

    /// Replaces every match (in the scopes, when find is restricted) as one undo step and
    /// returns how many were replaced. Inserted text is never matched again.
    /// - Throws: as ``replace()``.
    @discardableResult
    public func replaceAll() throws(FindActionError) -> Int {
        let matcher = try checkReplace()
        let template = try replacementTemplate(for: matcher)
        let text = document.text
        let crlf = usesCRLF
        var changes: [(range: Range<Int>, replacement: String)] = []
        changes.reserveCapacity(matches.count)
        if template.isStatic && !template.preserveCase && !isSearching {
            // The match set is current: no need to search again for a constant replacement.
            let constant = adaptingLineBreaks(template.expand(Match(range: 0..<0)) { _ in [] }, crlf: crlf)
            for range in matches.ranges { changes.append((range, constant)) }
        } else {
            do {
                try matcher.forEachMatch(in: text, ranges: scopes ?? [0..<text.utf8Count], capturingGroups: !template.isStatic) { match in
                    changes.append((match.range, adaptingLineBreaks(template.expand(match, in: text), crlf: crlf)))
                }
            } catch {
                throw .noUsableQuery(.tooExpensive(message: error.description, offset: 0))
            }
        }
        guard !changes.isEmpty else { return 0 }
        document.apply(changes)
        return changes.count
    }
}
