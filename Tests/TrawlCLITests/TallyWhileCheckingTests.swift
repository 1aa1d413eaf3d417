import Foundation
import SystemPackage
import Testing
@testable import TrawlCLI
import TrawlFiles
import TrawlMatch
import TrawlTestSupport

/// A large mapped file counted block by block as it is checked gives exactly the counts of a
/// search of the whole checked text, for every pattern that allows it, whatever the blocks.
@Suite struct TallyWhileCheckingTests {
    /// Patterns with anchors, assertions at line and text edges, lookarounds, empty matches, word
    /// boundaries, case folding and multi-byte scalars; some are not line-bounded (they must say so).
    static let patterns: [(pattern: String, literal: Bool, caseless: Bool, wholeWord: Bool)] = [
        ("foo", true, false, false), ("Error", true, true, false), ("é", true, false, false), ("a b", true, false, false),
        ("straße", true, true, false), ("foo", true, false, true), ("ab", false, false, true),
        ("\\w+Error\\b", false, false, false), ("[a-z]+ing\\b", false, false, false), ("^foo", false, false, false),
        ("bar$", false, false, false), ("\\Afoo", false, false, false), ("foo\\z", false, false, false),
        ("^$", false, false, false), ("^", false, false, false), ("$", false, false, false), ("x*", false, false, false),
        ("(?<=a)b", false, false, false), ("b(?=a)", false, false, false), ("(?<!\\n)c", false, false, false),
        ("(struct|class|enum|protocol)\\s+[A-Z]\\w*", false, false, false), ("func\\s+\\w+\\(", false, false, false),
        ("eventloop", false, true, false), ("\\bk\\b", false, true, false), ("(?m)^c$", false, false, false),
        ("a\\nb", false, false, false), ("\\s+$", false, false, false), (".", false, false, false),
    ]

    /// Random lines (every kind of line ending, multi-byte scalars, case variants) of at least `size` bytes.
    func randomText(size: Int, using random: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < size {
            bytes += random.matchText(pieces: 12)
            bytes += Int.random(in: 0..<4, using: &random) == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        return bytes
    }

    func read(_ bytes: [UInt8]) throws -> FileContent {
        let url = try temporaryFolder("tally").appendingPathComponent("text")
        try Data(bytes).write(to: url)
        return try FileContent.read(path: FilePath(url.path), for: .search(allowsMapping: true, allowsStreams: false, checksLater: true)).get()
    }

    /// Compares, for every pattern and tally mode that allows it, the block tallies with the
    /// tally of a search of the whole (checked) text.
    func compare(_ content: FileContent, blockSizes: [Int]) throws -> Int {
        let checked = try content.checked().get()
        var compared = 0
        for entry in Self.patterns {
            var switches = FindQuery(pattern: entry.pattern, syntax: entry.literal ? .literal : .regex)
            switches.caseMode = entry.caseless ? .insensitive : .sensitive
            switches.wholeWord = entry.wholeWord
            let matcher = try switches.makeMatcher()
            for mode in [FindMode.countLines, .countMatches, .filesWithMatches] {
                guard let count = mode.tallyCount, LineSearcher.canTallyWhileChecking(matcher) else { continue }
                compared += 1
                var settings = FindSettings()
                settings.mode = mode
                let whole = try searchText(checked.text, display: DisplayPath(bytes: []), matcher: matcher, settings: settings)
                for blockBytes in blockSizes {
                    let tally = try LineSearcher.tally(of: matcher, in: content, counting: count, blockBytes: blockBytes).get().get()
                    #expect(tally == LineSearcher.Tally(matches: whole.matches, matchedLines: whole.matchedLines), "\(entry.pattern) \(mode), blocks of \(blockBytes)")
                }
            }
        }
        return compared
    }

    @Test func blockTalliesEqualWholeTextTallies() throws {
        // Small texts (checked when read: only the blocks are exercised) in many block sizes, down
        // to a block per line; then a mapped text, checked block by block.
        var random = SeededGenerator(seed: 31)
        for _ in 0..<2 {
            let content = try read(randomText(size: 30_000, using: &random))
            #expect(content.isChecked)
            #expect(try compare(content, blockSizes: [1, 97, 4093]) >= 60, "most patterns are line-bounded")
        }
        let mapped = try read(randomText(size: FileContent.mapThreshold + 1000, using: &random))
        #expect(!mapped.isChecked)
        _ = try compare(mapped, blockSizes: [65536])
    }
}
