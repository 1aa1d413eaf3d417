import Testing
import TrawlFind
import TrawlMatch

/// "i of N" when the selection is not a match: current editors name the match the next "find
/// next" lands on (the first at or after the selection), not "?".
@MainActor @Suite struct MatchPositionTests {
    func navigator(_ text: String, _ query: String) -> FindNavigator {
        let navigator = FindNavigator(document: TextDocument(text))
        navigator.query = query
        return navigator
    }

    @Test func aCaretBeforeTheFirstMatchCountsFromIt() throws {
        let find = navigator("x a a", "a")
        find.document.select(0..<0)
        #expect(find.positionDescription == "1 of 2" && find.positionMatchIndex == 0)
        // Next lands on the match named, and moves on from there.
        #expect(try find.findNext() == 0)
        #expect(find.positionDescription == "1 of 2")
        #expect(try find.findNext() == 1)
        #expect(find.positionDescription == "2 of 2")
    }

    @Test func aCaretBetweenMatchesCountsFromTheNextOne() {
        let find = navigator("a x a x a", "a")
        find.document.select(3..<3)
        #expect(find.positionDescription == "2 of 3")
        find.document.select(3..<5) // a selection that is not a match: from its end
        #expect(find.positionDescription == "3 of 3")
    }

    @Test func pastTheLastMatchItWrapsOrIsUnknown() {
        let find = navigator("a x a x", "a")
        find.document.select(7..<7)
        #expect(find.positionDescription == "1 of 2") // next wraps to the first
        find.wraps = false
        #expect(find.positionDescription == "? of 2" && find.positionMatchIndex == nil)
    }

    @Test func aSelectedMatchCountsItself() {
        let find = navigator("a x a", "a")
        find.document.select(4..<5)
        #expect(find.positionDescription == "2 of 2" && find.currentMatchIndex == 1)
    }
}
