import Testing
@testable import TrawlText

/// Offset conversions, clamping and reading, checked against Swift `String` views.
@Suite struct RopeConversionTests {
    /// Builds a rope by editing (so that chunks are cut unevenly), with its oracle text.
    func randomRope(seed: UInt64, pieces: Int) -> (Rope, String) {
        var random = SeededGenerator(seed: seed)
        var rope = Rope(random.text(maxPieces: pieces))
        for _ in 0..<200 {
            let bytes = Array(String(rope).utf8)
            let at = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            rope.insert(random.text(maxPieces: 4), at: at)
        }
        return (rope, String(rope))
    }

    @Test(arguments: 0..<4)
    func conversionsMatchStringViews(run: Int) throws {
        let (rope, text) = randomRope(seed: PropertyTestSettings.seed &+ 100 &+ UInt64(run), pieces: 600)
        let bytes = Array(text.utf8)
        var lineStarts = [0]
        for (index, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(index + 1) }
        #expect(rope.lineCount == lineStarts.count)
        for (line, start) in lineStarts.enumerated() {
            #expect(rope.utf8Offset(ofLine: line) == start, "line \(line)")
        }
        for offset in 0...bytes.count {
            let boundary = scalarBoundary(in: bytes, atOrBefore: offset)
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: boundary)
            let utf16 = text.utf16.distance(from: text.utf16.startIndex, to: index)
            let scalars = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index)
            #expect(rope.clamp(offset, bias: .backward) == boundary)
            #expect(rope.utf16Offset(ofUTF8: offset) == utf16, "utf16 of \(offset)")
            #expect(rope.scalarOffset(ofUTF8: offset) == scalars, "scalars of \(offset)")
            #expect(rope.utf8Offset(ofScalar: scalars) == boundary)
            #expect(rope.utf8Offset(ofUTF16: utf16) == boundary)
            let line = lineStarts.lastIndex(where: { $0 <= boundary })!
            #expect(rope.position(ofUTF8: offset) == TextPosition(line: line, column: boundary - lineStarts[line]))
            let lineStartUTF16 = rope.utf16Offset(ofUTF8: lineStarts[line])
            let utf16Position = TextPosition(line: line, column: utf16 - lineStartUTF16)
            #expect(rope.utf16Position(ofUTF8: offset) == utf16Position)
            if bytes.indices.contains(boundary) && bytes[boundary] == 0x0A && boundary > 0 && bytes[boundary - 1] == 0x0D {
                continue // between CR and LF: positions clamp to the line's end, before the CR
            }
            #expect(rope.utf8Offset(of: TextPosition(line: line, column: boundary - lineStarts[line])) == boundary)
            #expect(rope.utf8Offset(ofUTF16Position: utf16Position) == boundary)
        }
        // UTF-16 offsets between the halves of a surrogate pair move to the scalar's start or end.
        var utf16Offset = 0
        var utf8Offset = 0
        for scalar in text.unicodeScalars {
            if scalar.utf16.count == 2 {
                #expect(rope.utf8Offset(ofUTF16: utf16Offset + 1, bias: .backward) == utf8Offset)
                #expect(rope.utf8Offset(ofUTF16: utf16Offset + 1, bias: .forward) == utf8Offset + 4)
            }
            utf16Offset += scalar.utf16.count
            utf8Offset += scalar.utf8.count
        }
    }

    @Test func lineRangesAndColumnsClampAtLineEnds() {
        let rope = Rope("ab\r\ncd\n\nlast")
        #expect(Array(rope.lines()) == ["ab", "cd", "", "last"])
        #expect(rope.utf8Range(ofLine: 0) == 0..<4)
        #expect(rope.utf8Range(ofLine: 0, includingLineBreak: false) == 0..<2)
        #expect(rope.utf8Offset(of: TextPosition(line: 0, column: 99)) == 2)
        #expect(rope.utf8Offset(of: TextPosition(line: 9, column: 0)) == rope.utf8Count)
        #expect(Rope("a\rb").lineCount == 1, "a lone CR is not a line break")
        #expect(Rope("").lineCount == 1)
    }

    @Test(arguments: 0..<3)
    func chunkIterationCoversRangesForwardAndBackward(run: Int) {
        let (rope, text) = randomRope(seed: PropertyTestSettings.seed &+ 200 &+ UInt64(run), pieces: 800)
        let bytes = Array(text.utf8)
        var random = SeededGenerator(seed: UInt64(run))
        for _ in 0..<200 {
            let a = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            let b = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            let range = min(a, b)..<max(a, b)
            var expectedOffset = range.lowerBound
            var forward: [UInt8] = []
            for chunk in rope.chunks(in: range) {
                #expect(chunk.offset == expectedOffset && chunk.count > 0)
                expectedOffset += chunk.count
                forward += chunk.bytes
            }
            #expect(forward == Array(bytes[range]))
            var backward: [[UInt8]] = []
            var expectedEnd = range.upperBound
            for chunk in rope.reversedChunks(in: range) {
                #expect(chunk.range.upperBound == expectedEnd)
                expectedEnd = chunk.offset
                backward.append(chunk.bytes)
            }
            #expect(Array(backward.reversed().joined()) == Array(bytes[range]))
            #expect(Array(rope.reversedChunks(upTo: range.upperBound).reversed().flatMap(\.bytes)) == Array(bytes[..<range.upperBound]))
            #expect(Array(rope.chunks(from: range.lowerBound).flatMap(\.bytes)) == Array(bytes[range.lowerBound...]))
            #expect(Array(rope.bytes(in: range)) == Array(bytes[range]))
        }
    }

    @Test func editRecordsTransformOffsets() {
        let edit = TextEdit(replacedRange: 4..<8, insertedCount: 2)
        #expect(edit.lengthDelta == -2)
        #expect(edit.transform(3) == 3)
        #expect(edit.transform(5, bias: .backward) == 4)
        #expect(edit.transform(5, bias: .forward) == 6)
        #expect(edit.transform(8) == 6)
        #expect(edit.transform(10) == 8)
        let insertion = TextEdit(replacedRange: 4..<4, insertedCount: 3)
        #expect(insertion.transform(4, bias: .backward) == 4)
        #expect(insertion.transform(4, bias: .forward) == 7)
    }

    @Test func equalityComparesTextNotChunking() {
        var edited = Rope(String(repeating: "x", count: 500))
        for i in stride(from: 0, to: 500, by: 7) { edited.replace(i..<(i + 1), with: "y") }
        var expected = Array(String(repeating: "x", count: 500).utf8)
        for i in stride(from: 0, to: 500, by: 7) { expected[i] = UInt8(ascii: "y") }
        let built = Rope(String(decoding: expected, as: UTF8.self))
        #expect(edited == built)
        #expect(edited != Rope(String(repeating: "x", count: 500)))
    }
}
