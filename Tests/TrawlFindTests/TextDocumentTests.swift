import Testing
import TrawlFind
import TrawlTestSupport
import TrawlText

/// Undo and redo restore exact texts and selections; selections and tracked ranges follow edits.
@MainActor @Suite struct TextDocumentTests {
    @Test func undoAndRedoRestoreTheExactText() {
        let document = TextDocument("one\r\ntwo")
        document.replace(3..<3, with: " 1")
        document.replace(0..<3, with: "ONE")
        #expect(document.text.description == "ONE 1\r\ntwo")
        document.undo()
        #expect(document.text.description == "one 1\r\ntwo")
        document.undo()
        #expect(document.text.description == "one\r\ntwo")
        #expect(!document.canUndo)
        document.redo()
        document.redo()
        #expect(document.text.description == "ONE 1\r\ntwo")
        // A new edit clears what could be redone.
        document.undo()
        document.replace(0..<0, with: ">")
        #expect(!document.canRedo)
    }

    @Test func aGroupIsOneUndoStep() {
        let document = TextDocument("abc")
        document.groupingUndo {
            document.replace(0..<1, with: "A")
            document.replace(2..<3, with: "C")
        }
        #expect(document.text.description == "AbC")
        document.undo()
        #expect(document.text.description == "abc")
    }

    @Test func selectionsAndTrackedRangesFollowEdits() {
        let document = TextDocument("hello world")
        let tracked = document.track(6..<11)
        document.select([0..<0, 6..<11], primary: 1)
        document.replace(0..<0, with: ">> ")
        #expect(document.range(of: tracked) == 9..<14)
        document.select(9..<9)
        document.insertAtSelections("big ")
        #expect(document.text.description == ">> hello big world")
        #expect(document.selections == [13..<13])
        // Typing at a tracked range's edge grows it (as VS Code's default stickiness).
        #expect(document.range(of: tracked) == 9..<18)
        document.undo()
        #expect(document.range(of: tracked) == 9..<14)
    }

    /// Many changes in one batch (rebuilt in one pass) give the same text and edits as few.
    @Test func largeBatchesMatchEditByEdit() {
        var random = SeededGenerator(seed: 9)
        let base = String(repeating: "ab😀\r\n", count: 400)
        let rope = Rope(base)
        var changes: [(range: Range<Int>, replacement: String)] = []
        var offset = 0
        while offset < rope.utf8Count - 8 {
            let start = rope.clamp(offset + Int.random(in: 0...3, using: &random))
            let end = rope.clamp(start + Int.random(in: 0...3, using: &random), bias: .forward)
            changes.append((start..<end, ["x", "", "é", "\n"].randomElement(using: &random)!))
            offset = end + 1
        }
        #expect(changes.count > 600)
        // Selections and tracked ranges, carets and spans, some at change edges: moved through the
        // whole batch in one sweep, they end where making the changes one by one puts them.
        var spans: [Range<Int>] = []
        var offset2 = 0
        while offset2 < rope.utf8Count - 4 {
            let start = rope.clamp(offset2 + Int.random(in: 0...5, using: &random))
            let end = Bool.random(using: &random) ? start : rope.clamp(start + Int.random(in: 1...6, using: &random), bias: .forward)
            spans.append(start..<end)
            offset2 = end + 1
        }
        let batch = TextDocument(rope)
        let batchTracked = spans.map(batch.track)
        let edits = batch.apply(changes)
        let oneByOne = TextDocument(rope)
        for change in changes.reversed() { oneByOne.apply([change]) }
        #expect(batch.text.description == oneByOne.text.description)
        // The reference: each endpoint moved through the edits one at a time, last change first,
        // with the bias its range had before the batch.
        let reference = spans.map { span -> Range<Int> in
            var lower = span.lowerBound, upper = span.upperBound
            for edit in edits {
                lower = edit.transform(lower, bias: span.isEmpty ? .forward : .backward)
                upper = edit.transform(upper, bias: .forward)
            }
            return lower..<max(lower, upper)
        }
        let moved = batchTracked.map { batch.range(of: $0)! }
        if let index = moved.indices.first(where: { moved[$0] != reference[$0] }) {
            Issue.record("tracked \(spans[index]): swept to \(moved[index]), one edit at a time \(reference[index])")
        }
        batch.undo()
        #expect(batch.text.description == base)
    }

    @Test func undoRestoresTrackedRangesAndObserversSeeRestoredSelections() {
        let document = TextDocument("0123456789abc")
        let tracked = document.track(5..<10)
        document.select(6..<7)
        document.replace(3..<12, with: "x")
        #expect(document.range(of: tracked) != 5..<10)
        var seen: [Range<Int>] = []
        _ = document.addObserver { document, change in if change.kind == .undo { seen = document.selections } }
        document.undo()
        #expect(document.range(of: tracked) == 5..<10)
        #expect(seen == [6..<7] && document.selections == [6..<7])
    }
}
