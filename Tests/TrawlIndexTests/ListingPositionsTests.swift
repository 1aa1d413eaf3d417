import SystemPackage
import Testing
import TrawlFiles
@testable import TrawlIndex
import TrawlTestSupport

/// A watcher chooses a question's files from the candidates alone (``ListingPositions``): the
/// same files, skips and totals as the pass over every listed file it replaces.
@Suite struct ListingPositionsTests {
    @Test func choosesWhatThePassOverEveryFileChooses() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5E1EC7))
        for round in 0..<(300 * PropertyTestSettings.scale) {
            // Numbers given in walk order with gaps (files removed by refreshes), some files not
            // indexed: binary, not UTF-8, UTF-16, or unreadable when indexed.
            var files: [TreeListing.File] = []
            var number: UInt32 = 0
            for index in 0..<Int.random(in: 0...60, using: &random) {
                let signature = FileSignature(size: Int.random(in: 0...5000, using: &random), modified: index, changed: index, inode: UInt64(index), mode: 0o100644)
                let path = Array("f\(index)".utf8)
                number += UInt32.random(in: 1...3, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .binary(offset: 3)))
                case 1: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .invalidUTF8(offset: 1)))
                case 2: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .utf16(bigEndian: false)))
                case 3: files.append(TreeListing.File(path: path, number: nil, signature: signature))
                default: files.append(TreeListing.File(path: path, number: number, signature: signature))
                }
            }
            // Candidates: some listed numbers and some no listed file has.
            let candidates = PostingList(sortedUnits: (0...(number + 4)).filter { _ in Bool.random(using: &random) })
            let positions = Set(files.indices)
            let changed = positions.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
            let gone = positions.filter { !changed.contains($0) && Int.random(in: 0..<8, using: &random) == 0 }
            let skipsBinaryFiles = Bool.random(using: &random)

            let chosen = ListingPositions(files).select(files, candidates: candidates, watched: (changed, gone), skipsBinaryFiles: skipsBinaryFiles)
            let expected = TreeIndexNarrowing.select(files, root: FilePath("/nowhere"), candidates: candidates, watched: (changed, gone),
                                                     skipsBinaryFiles: skipsBinaryFiles, excludes: nil)
            #expect(chosen.files.map(\.position) == expected.files.map(\.position), "round \(round)")
            #expect(chosen.files.map(\.recordedSkip) == expected.files.map(\.recordedSkip), "round \(round)")
            #expect(chosen.filesRuledOut == expected.filesRuledOut, "round \(round)")
            #expect(chosen.bytesRuledOut == expected.bytesRuledOut, "round \(round)")
        }
    }
}
