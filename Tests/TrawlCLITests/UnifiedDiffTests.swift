import Foundation
import Testing
@testable import TrawlCLI

/// The preview's hunks, in process, against GNU `diff -u` (same three lines of context, same rule
/// for merging nearby changes) on texts whose lines are all different, so that only one alignment
/// exists: changed, deleted, joined and split lines, near the ends and far apart.
@Suite(.enabled(if: tool("diff") != nil, "GNU diff is needed as the oracle"))
struct UnifiedDiffTests {
    /// Our hunks for `changes` applied to `old` (header lines left out).
    func hunks(_ old: [UInt8], _ changes: [(Range<Int>, [UInt8])]) -> String {
        old.withUnsafeBufferPointer { bytes in
            var diff = UnifiedDiff(bytes, path: DisplayPath(bytes: Array("f".utf8)), style: Style(enabled: false))
            for (range, replacement) in changes { diff.add(range, replacement) }
            diff.finish()
            return String(decoding: diff.takeOutput(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst(2).joined(separator: "\n")
        }
    }

    /// GNU diff's hunks for the same change (header lines left out).
    func oracle(_ old: [UInt8], _ new: [UInt8]) throws -> String {
        let folder = try temporaryFolder("udiff")
        let a = folder.appendingPathComponent("a"), b = folder.appendingPathComponent("b")
        try Data(old).write(to: a)
        try Data(new).write(to: b)
        let run = try runTool(tool("diff")!, ["-u", a.path, b.path])
        return run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
    }

    @Test func hunksEqualGNUDiffs() throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xD1FF))
        for round in 0..<(60 * PropertyTestSettings.scale) {
            let lineCount = Int.random(in: 1...40, using: &random)
            let lines = (0..<lineCount).map { "line \($0) of round \(round)\n" }
            var old = Array(lines.joined().utf8)
            if Bool.random(using: &random) { old.removeLast() } // no final line break
            var starts: [Int] = [0]
            for (index, byte) in old.enumerated() where byte == 0x0A && index + 1 < old.count { starts.append(index + 1) }
            var changes: [(Range<Int>, [UInt8])] = []
            var line = Int.random(in: 0..<lineCount, using: &random)
            var counter = 0
            while line < lineCount {
                let start = starts[line]
                let end = line + 1 < starts.count ? starts[line + 1] : old.count
                counter += 1
                switch Int.random(in: 0..<4, using: &random) {
                case 0: // change a word
                    changes.append((start..<(start + 4), Array("LINE\(counter)".utf8)))
                case 1: // delete the whole line
                    changes.append((start..<end, []))
                case 2 where end < old.count: // join with the next line
                    changes.append(((end - 1)..<end, Array(" joined\(counter) ".utf8)))
                default: // split it
                    changes.append(((start + 4)..<(start + 5), Array("\nsplit\(counter)\n".utf8)))
                }
                line += Int.random(in: 1...12, using: &random)
            }
            var new: [UInt8] = []
            var copied = 0
            for (range, replacement) in changes {
                new += old[copied..<range.lowerBound] + replacement
                copied = range.upperBound
            }
            new += old[copied...]
            let mine = hunks(old, changes), theirs = try oracle(old, new)
            #expect(mine == theirs, "round \(round)\n--- ours\n\(mine)\n--- diff\n\(theirs)")
        }
    }
}
