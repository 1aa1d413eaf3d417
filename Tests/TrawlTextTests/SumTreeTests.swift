import Testing
import TrawlText

/// A match kept as relative measures, as the navigator will keep them: the gap since the previous
/// match's end and the match's own length.
private struct Span: SumTreeItem, Equatable {
    var gap: Int
    var length: Int
    var summary: SpanSummary { SpanSummary(count: 1, bytes: gap + length, longest: length) }
}

private struct SpanSummary: SumTreeSummary {
    var count = 0
    var bytes = 0
    var longest = 0
    static var zero: SpanSummary { SpanSummary() }
    mutating func add(_ other: SpanSummary) {
        count += other.count
        bytes += other.bytes
        longest = max(longest, other.longest)
    }
}

private struct Bytes: SumTreeDimension {
    var value = 0
    static var zero: Bytes { Bytes() }
    mutating func add(_ summary: SpanSummary) { value += summary.bytes }
    static func < (lhs: Bytes, rhs: Bytes) -> Bool { lhs.value < rhs.value }
}

private struct Matches: SumTreeDimension {
    var value = 0
    static var zero: Matches { Matches() }
    mutating func add(_ summary: SpanSummary) { value += summary.count }
    static func < (lhs: Matches, rhs: Matches) -> Bool { lhs.value < rhs.value }
}

/// The SumTree against a plain array (the oracle) after random edits.
@Suite struct SumTreeTests {
    private func check(_ tree: SumTree<Span>, _ array: [Span], _ random: inout SeededGenerator) {
        #expect(tree.invariantViolation() == nil, "\(tree.invariantViolation() ?? "")")
        #expect(tree.items == array)
        #expect(tree.count == array.count)
        var total = SpanSummary.zero
        for span in array { total.add(span.summary) }
        #expect(tree.summary == total)
        guard !array.isEmpty else { return }
        let index = Int.random(in: 0...array.count, using: &random)
        var prefix = SpanSummary.zero
        for span in array[..<index] { prefix.add(span.summary) }
        #expect(tree.summary(before: index) == prefix)
        #expect(tree.measure(before: index, as: Bytes.self).value == prefix.bytes)
        if index < array.count { #expect(tree[index] == array[index]) }
        // Seeking by bytes, both biases, against a linear walk.
        let target = Int.random(in: 0...(total.bytes + 1), using: &random)
        for bias in [Bias.forward, .backward] {
            var end = 0
            var expected = array.count
            for (position, span) in array.enumerated() {
                end += span.gap + span.length
                if bias == .forward ? end > target : end >= target {
                    expected = position
                    break
                }
            }
            #expect(tree.index(at: Bytes(value: target), bias: bias) == expected, "bytes \(target) \(bias)")
        }
        // Seeking by count is indexing.
        let nth = Int.random(in: 0..<array.count, using: &random)
        #expect(tree.index(at: Matches(value: nth)) == nth)
    }

    @Test func randomEditsMatchAnArray() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5_0317_7EE))
        for _ in 0..<(6 * PropertyTestSettings.scale) {
            var array = (0..<Int.random(in: 0...40, using: &random)).map { _ in Span(gap: Int.random(in: 0...9, using: &random), length: Int.random(in: 0...5, using: &random)) }
            var tree = SumTree(array)
            check(tree, array, &random)
            for step in 0..<400 {
                let snapshot = tree, snapshotItems = array
                func newSpan() -> Span { Span(gap: Int.random(in: 0...9, using: &random), length: Int.random(in: 0...5, using: &random)) }
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1:
                    let index = Int.random(in: 0...array.count, using: &random)
                    let span = newSpan()
                    tree.insert(span, at: index)
                    array.insert(span, at: index)
                case 2 where !array.isEmpty:
                    let index = Int.random(in: 0..<array.count, using: &random)
                    #expect(tree.remove(at: index) == array.remove(at: index))
                case 3 where !array.isEmpty:
                    let index = Int.random(in: 0..<array.count, using: &random)
                    let gap = Int.random(in: 0...9, using: &random)
                    tree.update(at: index) { $0.gap = gap }
                    array[index].gap = gap
                default:
                    let lower = Int.random(in: 0...array.count, using: &random)
                    let upper = Int.random(in: lower...min(array.count, lower + 6), using: &random)
                    let spans = (0..<Int.random(in: 0...6, using: &random)).map { _ in newSpan() }
                    tree.replaceSubrange(lower..<upper, with: spans)
                    array.replaceSubrange(lower..<upper, with: spans)
                }
                if step % 7 == 0 { check(tree, array, &random) }
                // The copy taken before the edit is untouched by it.
                if step % 50 == 0 { #expect(snapshot.items == snapshotItems && snapshot.invariantViolation() == nil) }
            }
            check(tree, array, &random)
            // Emptied and filled again.
            while !array.isEmpty { tree.remove(at: 0); array.removeFirst() }
            check(tree, array, &random)
            #expect(tree.isEmpty)
        }
    }

    @Test func bulkBuildsAreBalancedAtEverySize() {
        var random = SeededGenerator(seed: 7)
        for size in 0..<300 {
            let array = (0..<size).map { Span(gap: $0 % 7, length: $0 % 3) }
            let tree = SumTree(array)
            #expect(tree.invariantViolation() == nil, "size \(size): \(tree.invariantViolation() ?? "")")
            if size % 37 == 0 { check(tree, array, &random) }
        }
    }
}
