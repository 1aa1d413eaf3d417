import Testing
@testable import TrawlText

/// Long random edit sequences compared with Swift `String` after every step, invariants checked.
@Suite struct RopeDifferentialTests {
    /// Records every difference from the oracle; returns whether there was none.
    @discardableResult
    func expectMatches(_ rope: Rope, _ oracle: String, step: Int, seed: UInt64) -> Bool {
        let text = String(rope)
        #expect(text == oracle, "text differs at step \(step), seed \(seed)")
        #expect(rope.utf8Count == oracle.utf8.count, "utf8 at step \(step)")
        #expect(rope.utf16Count == oracle.utf16.count, "utf16 at step \(step)")
        #expect(rope.scalarCount == oracle.unicodeScalars.count, "scalars at step \(step)")
        #expect(rope.lineCount == oracle.utf8.filter { $0 == 0x0A }.count + 1, "lines at step \(step)")
        let violation = rope.invariantViolation()
        if let violation { Issue.record("invariant violated at step \(step), seed \(seed): \(violation)") }
        return text == oracle && violation == nil
    }

    @Test(arguments: 0..<6)
    func randomEditsMatchString(run: Int) {
        let seed = PropertyTestSettings.seed &+ UInt64(run)
        var random = SeededGenerator(seed: seed)
        var oracle = random.text(maxPieces: run * 400)
        var rope = Rope(oracle)
        expectMatches(rope, oracle, step: -1, seed: seed)
        let steps = 1500 * PropertyTestSettings.scale
        for step in 0..<steps {
            var bytes = Array(oracle.utf8)
            let a = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            let b = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            let range = min(a, b)..<max(a, b)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35: // insert, mostly small
                let text = random.text(maxPieces: Int.random(in: 0..<10, using: &random) == 0 ? 400 : 6)
                let edit = rope.insert(text, at: a)
                #expect(edit == TextEdit(replacedRange: a..<a, insertedCount: text.utf8.count))
                bytes.insert(contentsOf: text.utf8, at: a)
            case 35..<60: // delete, mostly short ranges
                let short = min(range.lowerBound + Int.random(in: 0...12, using: &random), range.upperBound)
                let target = Bool.random(using: &random) ? range : range.lowerBound..<scalarBoundary(in: bytes, atOrBefore: short)
                rope.delete(target)
                bytes.removeSubrange(target)
            case 60..<85: // replace
                let text = random.text(maxPieces: Int.random(in: 0..<10, using: &random) == 0 ? 300 : 4)
                let edit = rope.replace(range, with: text)
                #expect(edit.insertedRange == range.lowerBound..<(range.lowerBound + text.utf8.count))
                bytes.replaceSubrange(range, with: Array(text.utf8))
            case 85..<90: // slice shares structure and matches
                let slice = rope.slice(range)
                #expect(Array(slice.bytes()) == Array(bytes[range]))
                #expect(slice.invariantViolation() == nil, "slice invariants: \(slice.invariantViolation() ?? "")")
                #expect(rope[range] == String(decoding: bytes[range], as: UTF8.self))
            case 90..<95: // split and join back
                let (left, right) = rope.split(at: a)
                #expect(left.utf8Count == a)
                #expect(left.invariantViolation() == nil && right.invariantViolation() == nil)
                rope = left + right
            default: // append another rope
                let text = random.text(maxPieces: 30)
                let before = rope
                rope.append(Rope(text))
                #expect(String(before) == oracle, "appending changed a snapshot")
                bytes.append(contentsOf: text.utf8)
            }
            oracle = String(decoding: bytes, as: UTF8.self)
            guard expectMatches(rope, oracle, step: step, seed: seed) else { return } // first failure is enough
            if rope.utf8Count > 40_000 { // keep texts in a range where every step stays cheap
                rope.delete(0..<scalarBoundary(in: Array(oracle.utf8), atOrBefore: 20_000))
                oracle = String(decoding: Array(oracle.utf8)[scalarBoundary(in: Array(oracle.utf8), atOrBefore: 20_000)...], as: UTF8.self)
            }
        }
    }

    @Test func snapshotsAreIndependentOfLaterEdits() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed)
        var rope = Rope(random.text(maxPieces: 3000))
        var snapshots: [(Rope, String)] = []
        for _ in 0..<200 {
            snapshots.append((rope, String(rope)))
            let bytes = Array(String(rope).utf8)
            let at = scalarBoundary(in: bytes, atOrBefore: Int.random(in: 0...bytes.count, using: &random))
            let end = scalarBoundary(in: bytes, atOrBefore: min(bytes.count, at + Int.random(in: 0...20, using: &random)))
            rope.replace(at..<max(at, end), with: random.text(maxPieces: 5))
        }
        for (snapshot, text) in snapshots {
            #expect(String(snapshot) == text)
            #expect(snapshot.invariantViolation() == nil)
        }
    }

    @Test func crlfPairsAreNeverSplitAcrossChunks() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed ^ 0xC4)
        let pieces = ["\r", "\n", "\r\n", "x"]
        var rope = Rope()
        var oracle: [UInt8] = []
        for step in 0..<3000 * PropertyTestSettings.scale {
            let text = (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let at = Int.random(in: 0...oracle.count, using: &random)
            if Bool.random(using: &random) || oracle.isEmpty {
                rope.insert(text, at: at)
                oracle.insert(contentsOf: text.utf8, at: at)
            } else {
                let end = min(oracle.count, at + Int.random(in: 1...3, using: &random))
                rope.delete(at..<end)
                oracle.removeSubrange(at..<end)
            }
            #expect(Array(rope.bytes()) == oracle, "step \(step)")
            if let violation = rope.invariantViolation() { Issue.record("step \(step): \(violation)"); return }
        }
    }
}
