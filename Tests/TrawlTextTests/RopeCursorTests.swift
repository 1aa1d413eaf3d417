import Testing
import TrawlText

@Suite struct RopeCursorTests {
    @Test func seeksByEveryMeasureAndReportsThemAll() {
        let text = "first line\r\nsecond 😀 line\nthird ünïcode\n"
        let rope = Rope(text)
        var cursor = rope.cursor()
        cursor.seek(to: 1, in: .newlines)
        #expect(cursor.offset == 12)
        #expect(cursor.measures == TextSummary(utf8: 12, utf16: 12, scalars: 12, newlines: 1))
        cursor.seek(to: 19, in: .utf16)            // just after "second "
        #expect(cursor.scalarAfter == "😀")
        cursor.seek(to: 20, in: .utf16, bias: .forward) // inside the surrogate pair: after the emoji
        #expect(cursor.scalarBefore == "😀")
        cursor.seek(to: 2, in: .newlines)
        #expect(rope[cursor.offset..<rope.utf8Count] == "third ünïcode\n")
        cursor.move(byScalars: 7)
        #expect(cursor.scalarAfter == "n" && cursor.scalarBefore == "ü")
        cursor.move(byScalars: -1000)
        #expect(cursor.offset == 0)
        cursor.seek(toUTF8: 21, bias: .backward) // inside the emoji's four bytes
        #expect(cursor.offset == 19)
    }

    @Test func walksTheChunksOfARangeInOrderAndStopsWhenAsked() {
        // Debug builds have tiny leaves: a few kilobytes make a deep tree of many leaves.
        let text = String(repeating: "abcdefgh é😀\r\n", count: 300)
        let rope = Rope(text)
        let bytes = Array(text.utf8)
        for range in [0..<bytes.count, 7..<bytes.count - 5, 100..<101, 50..<50, 0..<0] {
            var walked: [UInt8] = []
            var expectedOffset = range.lowerBound
            var chunks = 0
            rope.forEachChunk(in: range) { offset, chunk in
                #expect(offset == expectedOffset && !chunk.isEmpty)
                walked += chunk
                expectedOffset += chunk.count
                chunks += 1
                return true
            }
            #expect(walked == Array(bytes[range]), "\(range)")
            #expect(chunks == rope.chunks(in: range).reduce(0) { count, _ in count + 1 })
        }
        var visited = 0
        rope.forEachChunk(in: 0..<bytes.count) { _, _ in
            visited += 1
            return visited < 3
        }
        #expect(visited == 3)
    }

    @Test func readsChunksBothWaysAndIgnoresLaterEdits() {
        var rope = Rope(String(repeating: "abc\n", count: 500))
        let cursor = rope.cursor(at: 1000)
        rope.insert("changed", at: 0)
        #expect(cursor.chunksForward().flatMap(\.bytes).count == 1000)
        #expect(cursor.chunksBackward().reduce(0) { $0 + $1.count } == 1000)
        #expect(cursor.rope.utf8Count == 2000, "the cursor keeps its snapshot")
    }
}
