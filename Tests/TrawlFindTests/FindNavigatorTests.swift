import Testing
import TrawlFind
import TrawlMatch
import TrawlTestSupport
import TrawlText

/// Editor find semantics: navigation, wrap, counts, find in selection, replace and replace all.
@MainActor @Suite struct FindNavigatorTests {
    func navigator(_ text: String, _ query: String, _ options: MatchOptions = MatchOptions()) -> FindNavigator {
        let navigator = FindNavigator(document: TextDocument(text))
        navigator.options = options
        navigator.query = query
        return navigator
    }

    @Test func nextAndPreviousWrapByDefault() throws {
        let find = navigator("a x a x a", "a")
        #expect(find.matchCount == 3)
        #expect(find.positionDescription == "1 of 3") // the caret is before the first: next lands there
        find.document.select(2..<2)
        #expect(try find.findNext() == 1)
        #expect(find.document.primarySelection == 4..<5)
        #expect(find.positionDescription == "2 of 3")
        #expect(try find.findNext() == 2)
        #expect(try find.findNext() == 0) // wraps
        #expect(try find.findPrevious() == 2) // wraps back
        #expect(try find.findPrevious() == 1)
    }

    @Test func withoutWrapTheEndsStop() throws {
        let find = navigator("a x a", "a")
        find.wraps = false
        find.document.select(4..<5)
        #expect(!find.canGoForward)
        #expect(try find.findNext() == nil)
        #expect(find.document.primarySelection == 4..<5)
        #expect(find.canGoBack)
        #expect(try find.findPrevious() == 0)
        #expect(!find.canGoBack)
    }

    @Test func emptyMatchesAtTheCaretArePassedOver() throws {
        let find = navigator("ab\n\ncd", "^", .regex)
        #expect(find.matches.ranges == [0..<0, 3..<3, 4..<4])
        find.document.select(0..<0)
        #expect(try find.findNext() == 1)
        #expect(try find.findNext() == 2)
    }

    @Test func emptyQueryAndInvalidPatternGiveADiagnosticNotAThrow() {
        let find = navigator("abc", "")
        #expect(find.matchCount == 0 && find.diagnostic == .emptyQuery)
        find.options = .regex
        find.query = "(a"
        #expect(find.matchCount == 0)
        #expect(find.diagnostic == .invalidPattern(message: "missing closing parenthesis", offset: 2))
        find.query = "(a)"
        #expect(find.diagnostic == nil && find.matchCount == 1)
        // A caseless literal PCRE2 cannot compile (too long) is a diagnostic too, not a crash.
        find.options = MatchOptions(matchCase: false)
        find.query = String(repeating: "s", count: 30_000)
        guard case .invalidPattern(let message, _) = find.diagnostic else {
            Issue.record("no diagnostic: \(String(describing: find.diagnostic))")
            return
        }
        #expect(message.contains("too large") && find.matchCount == 0)
    }

    @Test func findInSelectionWithSeveralRanges() throws {
        let find = navigator("foo foo foo foo", "foo")
        find.document.select([0..<5, 8..<15])
        find.findInSelection()
        #expect(find.matches.ranges == [0..<3, 8..<11, 12..<15])
        find.document.select(3..<3)
        #expect(try find.findNext() == 1)
    }

    @Test func positionsConvertToUTF16ForHosts() {
        let find = navigator("😀 é😀", "😀")
        #expect(find.matches.ranges == [0..<4, 7..<11])
        let rope = find.document.text
        #expect(find.matches.ranges.map { rope.utf16Offset(ofUTF8: $0.lowerBound) } == [0, 4])
    }

    @Test func replaceIsTwoStepAndNeverMatchesInsertedText() throws {
        let find = navigator("cat cat", "cat")
        find.replacement = "catcat"
        find.document.select(0..<0)
        #expect(try find.replace() == false) // selects the first match
        #expect(find.document.primarySelection == 0..<3)
        try find.replaceAndFind()
        #expect(find.document.text.description == "catcat cat")
        // The next match is the one after the insertion, not inside it.
        #expect(find.document.primarySelection == 7..<10)
    }

    @Test func replaceAllIsOneUndoStepWithTemplates() throws {
        let find = navigator("alpha beta\r\ngamma", "(\\w)(\\w*)", .regex)
        find.replacement = "\\u$1$2!"
        #expect(try find.replaceAll() == 3)
        #expect(find.document.text.description == "Alpha! Beta!\r\nGamma!")
        find.document.undo()
        #expect(find.document.text.description == "alpha beta\r\ngamma")
        #expect(find.matchCount == 3)
    }

    @Test func replaceAllInScopesRedoesAndPreservesCaseInOneStep() throws {
        let find = navigator("Loop loop LOOP loop", "loop", MatchOptions(matchCase: false))
        find.preservesCase = true
        find.replacement = "cycle"
        find.restrict(to: [0..<9, 15..<19])
        #expect(try find.replaceAll() == 3)
        let replaced = "Cycle cycle LOOP cycle"
        #expect(find.document.text.description == replaced)
        find.document.undo()
        #expect(find.document.text.description == "Loop loop LOOP loop")
        find.document.redo()
        #expect(find.document.text.description == replaced)
    }

    @Test func oneReplaceExpandsItsTemplateWithTheMatchsGroups() throws {
        let find = navigator("let a = 1; let b = 2", "let (\\w+)", .regex)
        find.replacement = "var \\U$1"
        find.document.select(11..<16)
        #expect(try find.replace())
        #expect(find.document.text.description == "let a = 1; var B = 2")
    }

    @Test func replacementsInACRLFDocumentGetCRLF() throws {
        let find = navigator("a,b\r\nc", ",", .regex)
        find.replacement = "\\n"
        #expect(try find.replaceAll() == 1)
        #expect(find.document.text.description == "a\r\nb\r\nc")
        let lf = navigator("a,b\nc", ",", .regex)
        lf.replacement = "\\n"
        try lf.replaceAll()
        #expect(lf.document.text.description == "a\nb\nc")
    }

    @Test func anEditAfterASearchGaveUpSearchesAgain() throws {
        let find = navigator(String(repeating: "a", count: 30) + "b\nxa", "(a+)+$", .regex)
        guard case .tooExpensive = find.diagnostic else {
            Issue.record("expected a too-expensive diagnostic, got \(String(describing: find.diagnostic))")
            return
        }
        #expect(throws: FindActionError.self) { try find.replaceAll() }
        find.document.replace(30..<31, with: "")
        #expect(find.diagnostic == nil)
        #expect(find.matches.ranges == [0..<30, 32..<33])
    }

    @Test func aSelectionWithCRLFIsFoundByUsingItForFind() throws {
        let find = navigator("a\r\nb a\r\nb", "zzz")
        find.document.select(0..<4)
        try find.useSelectionForFind()
        #expect(find.matches.ranges == [0..<4, 5..<9])
        find.options = .regex
        try find.useSelectionForFind()
        #expect(find.matches.ranges == [0..<4, 5..<9])
    }

    @Test func theExactPrimarySelectionStaysPrimaryWhenRangesTouch() {
        let document = TextDocument("abcdef")
        document.select([0..<3, 3..<3], primary: 1)
        #expect(document.primarySelection == 3..<3 || document.selections.count == 1)
    }

    @Test func selectAllMatchesMakesOneSelectionEach() throws {
        let find = navigator("x1 x2 x3", "x\\d", .regex)
        try find.selectAllMatches()
        #expect(find.document.selections == [0..<2, 3..<5, 6..<8])
    }

    @Test func useSelectionForFindEscapesInRegexMode() throws {
        let find = navigator("a.b a+b", "zzz", .regex)
        find.document.select(0..<3)
        try find.useSelectionForFind()
        #expect(find.query == "a\\.b")
        #expect(find.matchCount == 1)
    }

    /// A large document is searched in the background; the result equals the synchronous one.
    @Test func largeDocumentsAreSearchedInTheBackground() async throws {
        let line = "let value = eventLoop.next() // 😀\n"
        let text = String(repeating: line, count: FindNavigator.backgroundThreshold / line.utf8.count + 10)
        let find = navigator(text, "eventLoop")
        #expect(find.isSearching)
        while find.isSearching { await Task.yield() }
        #expect(find.matchCount == FindNavigator.backgroundThreshold / line.utf8.count + 10)
        // A new query cancels the old search and starts again.
        find.query = "next"
        find.query = "value"
        while find.isSearching { await Task.yield() }
        #expect(find.matchCount == FindNavigator.backgroundThreshold / line.utf8.count + 10)
        #expect(find.matches[5] == (5 * line.utf8.count + 4)..<(5 * line.utf8.count + 9))
    }

    /// The README's example, as written there.
    @Test func readmeExample() throws {
        let document = TextDocument("let a = 1\r\nlet b = 2\n")
        let find = FindNavigator(document: document)
        find.options = .regex
        find.query = "let (\\w)"
        #expect(find.matchCount == 2 && find.positionDescription == "1 of 2")
        try find.findNext()
        #expect(document.primarySelection == 0..<5 && find.positionDescription == "1 of 2")
        find.replacement = "var $1"
        try find.replaceAll()
        #expect(document.text.description == "var a = 1\r\nvar b = 2\n")
        document.undo()
        #expect(document.text.description == "let a = 1\r\nlet b = 2\n")
    }

    @Test func stateUpdatesFollowTheNavigator() async throws {
        let find = navigator("a b a", "a")
        var updates = find.stateUpdates().makeAsyncIterator()
        #expect(await updates.next()?.matchCount == 2)
        find.query = "b"
        #expect(await updates.next()?.matchCount == 1)
        try find.findNext()
        let selected = await updates.next()
        #expect(selected?.currentMatchIndex == 0 && selected?.positionDescription == "1 of 1")
    }

    @Test func matchesInUTF16ForHosts() {
        let find = navigator("😀 é😀x", "😀")
        #expect(find.utf16Range(ofMatch: 0) == 0..<2)
        #expect(find.utf16Range(ofMatch: 1) == 4..<6)
    }

    /// Edits made while a large document is searched in the background do not restart the
    /// search: its result is patched with them, and equals a fresh search of the edited text.
    @Test func editsDuringABackgroundSearchArePatchedIn() async throws {
        let line = "let value = eventLoop.next() // 😀\r\n"
        let text = String(repeating: line, count: FindNavigator.backgroundThreshold / line.utf8.count + 10)
        let find = navigator(text, "eventLoop")
        #expect(find.isSearching)
        let document = find.document
        document.replace(0..<0, with: "eventLoop ")                          // a new match at the start
        document.replace(16..<25, with: "")                                  // the first line's match gone
        let middle = document.text.clamp(document.text.utf8Count / 2)
        document.replace(middle..<middle, with: "\r\neventLoop\r\n")          // one in the middle
        document.undo()
        document.redo()
        while find.isSearching { await Task.yield() }
        let expected = try LiteralMatcher("eventLoop").matches(in: document.text).map(\.range)
        #expect(find.matchCount == expected.count)
        // A Bool, not the arrays: a failure would otherwise render a diff of 100k ranges.
        let same = find.matches.ranges == expected
        #expect(same, "the patched result differs from a fresh search")
    }

    @Test func anchorsAndLineBreaksAreTheSameOnCRLFAndLF() {
        for (query, lf, crlf) in [("^", [0..<0, 2..<2, 3..<3, 5..<5], [0..<0, 3..<3, 5..<5, 8..<8]),
                                  ("$", [1..<1, 2..<2, 4..<4, 5..<5], [1..<1, 3..<3, 6..<6, 8..<8]),
                                  ("^$", [2..<2, 5..<5], [3..<3, 8..<8]),
                                  ("\\n", [1..<2, 2..<3, 4..<5], [1..<3, 3..<5, 6..<8]),
                                  ("b\\n^", [3..<5], [5..<8])] {
            #expect(navigator("a\n\nb\n", query, .regex).matches.ranges == lf, "\(query) on LF")
            #expect(navigator("a\r\n\r\nb\r\n", query, .regex).matches.ranges == crlf, "\(query) on CRLF")
        }
    }

    // Found by review.

    @Test func aMultiLineMatchCanStartFarBeforeTheEdit() {
        let find = navigator("x\n\n", "x\\n*y|\\n", .regex)
        #expect(find.matches.ranges == [1..<2, 2..<3])
        find.document.replace(3..<3, with: "y")
        #expect(find.matches.ranges == [0..<4])
    }

    @Test func aBoundedMatchCanStartBeforeAKeptMatchNearTheEdit() {
        // `x.{1,3}y` may begin up to its length before the edit: before the kept match "b".
        let find = navigator("xb\naq", "(?s)x.{1,3}y|b", .regex)
        #expect(find.matches.ranges == [1..<2])
        find.document.replace(4..<5, with: "y")
        #expect(find.matches.ranges == [0..<5])
    }

    @Test func aRestartIsNeverWhereAMatchEnded() {
        // As VS Code: an empty match where "a" ended; after it the search steps over the line
        // break, so the lazy `\n??` never takes it.
        let find = navigator("a\n" + String(repeating: "x", count: 8), "a|(?<=a)\\n??", .regex)
        #expect(find.matches.ranges == [0..<1, 1..<1])
        find.document.replace(10..<10, with: "a")
        #expect(find.matches.ranges == [0..<1, 1..<1, 10..<11])
    }

    @Test func searchesThroughTheIndexEqualFullSearchesAcrossEdits() async throws {
        let line = "let value = compute(input) // note\n"
        let document = TextDocument(String(repeating: line, count: 3000) + "needle here\n" + String(repeating: line, count: 3000))
        let find = FindNavigator(document: document)
        find.indexThreshold = 0
        find.query = "needle"
        await find.waitForIndex()
        #expect(find.isIndexed)
        var random = SeededGenerator(seed: 0x1DE)
        for step in 0..<200 {
            let at = document.text.clamp(Int.random(in: 0...document.text.utf8Count, using: &random))
            document.replace(at..<min(document.text.utf8Count, at + Int.random(in: 0...3, using: &random)),
                             with: ["needle", "x", "\n", "note", ""].randomElement(using: &random)!)
            if step % 10 == 0 {
                find.query = ["needle", "note", "needle\\s*here"].randomElement(using: &random)!
                find.options = find.query.contains("\\") ? .regex : MatchOptions()
                let matcher: any Matcher = find.options.syntax == .regex ? try RegexMatcher(find.query, options: .regex) : try LiteralMatcher(find.query)
                let expected = try matcher.matches(in: document.text).map(\.range)
                #expect(find.matches.ranges == expected, "step \(step) \(find.query)")
            }
        }
    }

    @Test func anEditOutsideAScopeReachesItsMatchesThroughLookaround() {
        // Only the scopes an edit can reach are searched again: a lookahead reads past a scope's
        // end, a lookbehind before its start.
        let find = navigator("x\nay-bb\n", "x\n(?=ay)|(?<=bb)\n", .regex)
        find.restrict(to: [0..<2, 7..<8])
        #expect(find.matches.ranges == [0..<2, 7..<8])
        find.document.replace(2..<3, with: "z")
        #expect(find.matches.ranges == [7..<8])
        find.document.replace(5..<6, with: "c")
        #expect(find.matches.ranges.isEmpty)
        find.document.undo()
        find.document.undo()
        #expect(find.matches.ranges == [0..<2, 7..<8])
    }

    @Test func scopesThatComeToOverlapGiveEachMatchOnce() {
        let find = navigator("aaaaa--aaaaa", "y")
        find.restrict(to: [0..<5, 7..<12])
        find.document.replace(3..<9, with: "xy")
        #expect(find.scopes == [0..<8])
        #expect(find.matches.ranges == [4..<5])
    }

    @Test func previousFromACaretInsideAMatchSelectsTheOneBefore() throws {
        let find = navigator("foo foo", "foo")
        find.document.select(5..<5)
        #expect(try find.findPrevious() == 0)
        find.document.select(3..<3)
        #expect(try find.findPrevious() == 0, "the match ending at the caret")
    }

    @Test func hidingIsAlwaysAllowed() throws {
        let find = navigator("abc", "b")
        find.present()
        find.policy = FindPolicy(findDisabled: true)
        #expect(find.isAvailable(.hide))
        try find.perform(.hide)
        #expect(!find.isPresented)
    }

    @Test func matchesMoveWithEditsDuringABackgroundSearch() async throws {
        let line = "let value = eventLoop.next()\n"
        let find = navigator(String(repeating: line, count: FindNavigator.backgroundThreshold / line.utf8.count + 10), "eventLoop")
        #expect(find.isSearching)
        // Edits while the search runs; at every moment, every match known so far covers
        // "eventLoop" in the text as it is then (partial results arrive whenever they do).
        var edits = 0
        while find.isSearching {
            if edits < 20 {
                find.document.replace(edits * 40..<edits * 40, with: ">>")
                edits += 1
            }
            let text = find.document.text
            let known = find.matches
            #expect((0..<min(known.count, 50)).allSatisfy { text[known[$0]] == "eventLoop" })
            await Task.yield()
        }
        let text = find.document.text
        #expect(find.matches.ranges.allSatisfy { text[$0] == "eventLoop" })
        // Some edits split a match; the final set equals a fresh search.
        #expect(find.matchCount == (try LiteralMatcher("eventLoop").count(in: text)))
    }
}
