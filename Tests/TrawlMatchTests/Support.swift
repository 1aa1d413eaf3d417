import Foundation
@_exported import TrawlTestSupport
@testable import TrawlMatch
import TrawlText

enum Settings {
    static var seed: UInt64 { PropertyTestSettings.seed(default: 0x6D61_7463) }
    static var scale: Int { PropertyTestSettings.scale }
}


/// A random range of `text` on scalar boundaries, ending at the text's end half the time.
func randomSearchRange(in text: [UInt8], using random: inout SeededGenerator) -> Range<Int> {
    var start = Int.random(in: 0...text.count, using: &random)
    while start < text.count && text[start] & 0xC0 == 0x80 { start += 1 }
    var end = Bool.random(using: &random) ? text.count : Int.random(in: start...text.count, using: &random)
    while end < text.count && text[end] & 0xC0 == 0x80 { end += 1 }
    return start..<end
}

/// The matches `matcher` finds in `range` of `text` (a rope of it, searched with the whole text as
/// context), going on one character after the start of every other match, as a host that
/// rejects a match does.
func matchesSkippingEveryOther(_ matcher: RegexMatcher, in text: [UInt8], rope: Rope, range: Range<Int>) throws -> [Match] {
    var cursor = matcher.cursor(over: rope, in: range, context: 0..<text.count)
    var found: [Match] = []
    while let match = try cursor.next() {
        found.append(match)
        if found.count % 2 == 1, match.range.lowerBound < text.count {
            cursor.skip(to: match.range.lowerBound + UTF8Bytes.scalarLength(lead: text[match.range.lowerBound]))
        }
    }
    return found
}

/// Up to 120 pieces of `alphabet`, drawn at random, as one text.
func randomText(from alphabet: [String], using random: inout SeededGenerator) -> [UInt8] {
    var text: [UInt8] = []
    for _ in 0..<Int.random(in: 0...120, using: &random) { text += Array(alphabet.randomElement(using: &random)!.utf8) }
    return text
}

/// A random end for a search context that ends inside `text` (at a scalar's start), and the match
/// ranges a cursor over the rope finds in `0..<end` with that context.
func matchesInContextEndingInside(_ text: [UInt8], matcher: some Matcher,
                                  using random: inout SeededGenerator) throws -> (end: Int, ranges: [Range<Int>]) {
    var end = Int.random(in: 0...text.count, using: &random)
    while end < text.count && text[end] & 0xC0 == 0x80 { end += 1 }
    var cursor = matcher.cursor(over: try Rope(validating: text), in: 0..<end, context: 0..<end)
    var ranges: [Range<Int>] = []
    while let match = try cursor.next() { ranges.append(match.range) }
    return (end, ranges)
}

/// The match ranges of `cursor`: up to three (at random) taken by `next()`, then the rest by its
/// walk (`forEachRemaining`), on the same cursor.
func rangesByNextThenWalk(_ cursor: inout MatchCursor, using random: inout SeededGenerator) throws -> [Range<Int>] {
    var found: [Range<Int>] = []
    for _ in 0..<Int.random(in: 0...3, using: &random) {
        guard let match = try cursor.next() else { break }
        found.append(match.range)
    }
    try cursor.forEachRemaining { match in
        found.append(match.range)
        return true
    }
    return found
}
