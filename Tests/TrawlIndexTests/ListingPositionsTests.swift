import SystemPackage
import Testing
import TrawlFiles
@testable import TrawlIndex
import TrawlTestSupport
import TrawlNGram

/// A watcher chooses a question's files from the candidates alone (``ListingPositions``): the
/// same files, skips and totals as the pass over every listed file it replaces.
@Suite struct ListingPositionsTests {
    @Test func choosesWhatThePassOverEveryFileChooses() throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5E1EC7))
        for round in 0..<(400 * PropertyTestSettings.scale) {
            // Numbers from 0 with gaps (files removed by refreshes), shuffled over the positions
            // (a refresh numbers changed files anew); some files not indexed: binary, not UTF-8,
            // UTF-16, or unreadable when indexed.
            let fileCount = Int.random(in: 0...60, using: &random)
            var numbers: [UInt32] = []
            var number = UInt32.random(in: 0...2, using: &random)
            for _ in 0..<fileCount {
                numbers.append(number)
                number += UInt32.random(in: 1...3, using: &random)
            }
            numbers.shuffle(using: &random)
            var files: [TreeListing.File] = []
            for index in 0..<fileCount {
                let signature = FileSignature(size: Int.random(in: 0...5000, using: &random), modified: index, changed: index, inode: UInt64(index), mode: 0o100644)
                let path = Array("f\(index)".utf8)
                switch Int.random(in: 0..<10, using: &random) {
                case 0: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .binary(offset: 3)))
                case 1: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .invalidUTF8(offset: 1)))
                case 2: files.append(TreeListing.File(path: path, number: nil, signature: signature, skip: .utf16(bigEndian: false)))
                case 3: files.append(TreeListing.File(path: path, number: nil, signature: signature))
                default: files.append(TreeListing.File(path: path, number: numbers[index], signature: signature))
                }
            }
            // Candidates: none now and then, else some listed numbers and some no listed file has.
            let candidates = round % 10 == 0 ? PostingList() : PostingList(sortedUnits: (0...(number + 4)).filter { _ in Bool.random(using: &random) })
            // Changed and gone drawn apart: a path can be in both when events name it twice.
            let positions = Set(files.indices)
            let changed = positions.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }
            let gone = positions.filter { _ in Int.random(in: 0..<8, using: &random) == 0 }
            let skipsBinaryFiles = Bool.random(using: &random)

            let chosen = try #require(ListingPositions(files)).select(files, candidates: candidates, watched: (changed, gone), skipsBinaryFiles: skipsBinaryFiles)
            let expected = TreeIndexNarrowing.select(files, root: FilePath("/nowhere"), candidates: candidates, watched: (changed, gone),
                                                     skipsBinaryFiles: skipsBinaryFiles, excludes: nil)
            #expect(chosen.files.map { $0.position } == expected.files.map { $0.position }, "round \(round)")
            #expect(chosen.files.map { $0.recordedSkip } == expected.files.map { $0.recordedSkip }, "round \(round)")
            #expect(chosen.filesRuledOut == expected.filesRuledOut, "round \(round)")
            #expect(chosen.bytesRuledOut == expected.bytesRuledOut, "round \(round)")
        }
    }

    /// Two files with one number (a manifest no index writes): no positions, so the watcher
    /// takes the pass over every file, which searches both.
    @Test func refusesANumberGivenTwice() {
        let signature = FileSignature(size: 10, modified: 1, changed: 1, inode: 1, mode: 0o100644)
        let files = [TreeListing.File(path: Array("a".utf8), number: 4, signature: signature),
                     TreeListing.File(path: Array("b".utf8), number: 4, signature: signature)]
        #expect(ListingPositions(files) == nil)
        #expect(ListingPositions(Array(files.prefix(1))) != nil)
    }
}
