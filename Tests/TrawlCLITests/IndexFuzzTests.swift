import Foundation
import SystemPackage
import Testing
import TrawlFiles
@testable import TrawlIndex
import TrawlStorage
import TrawlNGram

/// Seeded mutations of a real tree index: bytes flipped, cut, added or replaced (checksums left
/// as they are), and damage made with every checksum and the authenticator made again (as only a
/// bug could). Under a deadline, no run crashes or hangs, every search answers as a search
/// without the index does, and nothing outside the tree (nor in it, but `.trawl/`) changes.
@Suite struct IndexFuzzTests {
    static let words = ["alpha", "beta", "gamma", "delta", "omega", "needle", "zzzabsent"]

    /// A tree of a few folders and files of words, indexed, and a file outside it.
    func indexedTree() throws -> (top: URL, tree: URL) {
        let top = try temporaryFolder("index-fuzz")
        let tree = top.appendingPathComponent("t")
        var random = SeededGenerator(seed: 0x1F_2024)
        for folder in ["", "src", "src/deep", "docs"] {
            try FileManager.default.createDirectory(at: tree.appendingPathComponent(folder), withIntermediateDirectories: true)
            for number in 0..<4 {
                let text = (0..<12).map { _ in IndexFuzzTests.words.dropLast()[Int.random(in: 0..<6, using: &random)] }.joined(separator: " ")
                try Data((text + "\n").utf8).write(to: tree.appendingPathComponent(folder).appendingPathComponent("f\(number).txt"))
            }
        }
        try FileManager.default.createDirectory(at: tree.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("*.log\n".utf8).write(to: tree.appendingPathComponent(".gitignore"))
        try Data("needle outside\n".utf8).write(to: top.appendingPathComponent("outside.txt"))
        let aged = FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil)!
        for case let url as URL in aged {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
        }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: tree.path)
        #expect(try trawl(["index", "."], in: tree).status == 0)
        return (top, tree)
    }

    /// Every file of `folder` by name.
    func files(in folder: URL) throws -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: try FileManager.default.contentsOfDirectory(atPath: folder.path).map { ($0, try bytes(folder.appendingPathComponent($0))) })
    }

    /// The tree and what is beside it, `.trawl/` left out.
    func everythingButTheIndex(_ top: URL) throws -> [String: [UInt8]] {
        try snapshotTree(top).filter { !$0.key.contains(".trawl/") && !$0.key.hasSuffix(".trawl") }
    }

    @Test func mutatedIndexesNeverCrashHangOrChangeAnswers() throws {
        let (top, tree) = try indexedTree()
        let folder = tree.appendingPathComponent(".trawl")
        let pristine = try files(in: folder)
        let before = try everythingButTheIndex(top)
        let key = try UserKey.user.get()
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xF022_1DE5))
        let rounds = 200 * PropertyTestSettings.scale
        for round in 0..<rounds {
            // The pristine index back, then one mutation.
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
            for (name, bytes) in pristine { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
            let what = round % 4 == 3 ? try mutateWithValidChecksums(folder, pristine, key: key, &random) : try mutateBytes(folder, pristine, &random)

            let word = IndexFuzzTests.words[Int.random(in: 0..<IndexFuzzTests.words.count, using: &random)]
            let query = Bool.random(using: &random) ? [word] : [word, IndexFuzzTests.words[Int.random(in: 0..<IndexFuzzTests.words.count, using: &random)]]
            let mode = [["-l"], ["-c"], ["--count-matches"], []][Int.random(in: 0..<4, using: &random)]
            let with = try trawl(["find"] + mode + [query.joined(separator: " ")] + ["."], in: tree, limit: 20)
            let without = try trawl(["find", "--no-index"] + mode + [query.joined(separator: " ")] + ["."], in: tree, limit: 20)
            #expect(with.status >= 0 && with.status <= 2, "round \(round) (\(what)): status \(with.status): \(with.stderr)")
            #expect(with.stdout == without.stdout, "round \(round) (\(what)) \(mode) \(query): \(with.stderr)")
            if round % 5 == 0 {
                let preview = try trawl(["replace", word, "X", "."], in: tree, limit: 20)
                let plain = try trawl(["replace", "--no-index", word, "X", "."], in: tree, limit: 20)
                #expect(preview.stdout == plain.stdout && preview.status == plain.status, "round \(round) (\(what)): replace: \(preview.stderr)")
            }
            if round % 7 == 0 {
                // A refresh of the damaged index: no crash, no hang, written only in `.trawl/`.
                let indexed = try trawl(["index", "."], in: tree, limit: 20)
                #expect(indexed.status == 0 || indexed.status == 2, "round \(round) (\(what)): index: \(indexed.status) \(indexed.stderr)")
            }
            #expect(try everythingButTheIndex(top) == before, "round \(round) (\(what)): something outside .trawl changed")
        }
    }

    /// A random byte mutation of the manifest or a segment; returns what it did.
    func mutateBytes(_ folder: URL, _ pristine: [String: [UInt8]], _ random: inout SeededGenerator) throws -> String {
        let name = pristine.keys.filter { $0 != "lock" }.sorted()[Int.random(in: 0..<(pristine.count - 1), using: &random)]
        var bytes = pristine[name]!
        let kind = Int.random(in: 0..<6, using: &random)
        switch kind {
        case 0: // a few bytes flipped
            for _ in 0..<Int.random(in: 1...4, using: &random) { bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random) }
        case 1: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
        case 2: bytes += (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 3: // a varint made huge
            let at = Int.random(in: 36..<max(37, bytes.count), using: &random)
            for offset in at..<min(bytes.count, at + 9) { bytes[offset] = 0xFF }
        case 4: bytes = (0..<bytes.count).map { _ in UInt8.random(in: 0...255, using: &random) }
        default: // the header's counts changed, the header's own checksum made again
            guard bytes.count >= 36 else { break }
            for offset in 12..<20 { bytes[offset] = UInt8.random(in: 0...255, using: &random) }
            let checksum = StoredFormat.checksum(bytes[0..<28])
            for shift in 0..<8 { bytes[28 + shift] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(shift))) }
        }
        try Data(bytes).write(to: folder.appendingPathComponent(name))
        return "bytes \(kind) of \(name)"
    }

    /// Damage a bug could make, every checksum and the authenticator made again: paths out of the
    /// tree or into folders not listed, numbers past their limits, postings past their segment's.
    func mutateWithValidChecksums(_ folder: URL, _ pristine: [String: [UInt8]], key: UserKey, _ random: inout SeededGenerator) throws -> String {
        var manifest = try TreeIndexFormat.decodeManifest(pristine["index"]!, key: key)
        let kind = Int.random(in: 0..<6, using: &random)
        let signature = manifest.listing.files[0].signature
        switch kind {
        case 0:
            let hostile = ["../outside.txt", "/etc/passwd", "src/../../outside.txt", ".git/config", "src/./f0.txt", "nowhere/f.txt", ""]
            let path = hostile[Int.random(in: 0..<hostile.count, using: &random)]
            manifest.listing.files.append(TreeListing.File(path: Array(path.utf8), number: nil, signature: signature))
        case 1: manifest.nextNumber = UInt32.random(in: manifest.nextNumber...UInt32.max, using: &random)
        case 2: manifest.segments[0].numberLimit = UInt32.random(in: 0...UInt32.max, using: &random)
        case 3: manifest.listing.directories.removeFirst(Int.random(in: 1...manifest.listing.directories.count, using: &random))
        case 4:
            let position = Int.random(in: 0..<manifest.listing.files.count, using: &random)
            manifest.listing.files[position].number = manifest.nextNumber &+ UInt32.random(in: 0...3, using: &random)
        default:
            // A posting past the segment's limit, the segment's checksums made again.
            let reference = manifest.segments[0]
            let bytes = pristine[reference.name]!
            let stored = try StoredTreeIndex(manifest: pristine["index"]!, key: key) { _ throws(TreeIndexFormat.Error) in
                { offset, count throws(TreeIndexFormat.Error) in Array(bytes[offset..<(offset + count)]) }
            }
            var postings = NGramIndex()
            let moved = UInt32.random(in: 0..<reference.numberLimit, using: &random)
            let to = reference.numberLimit &+ UInt32.random(in: 0...2, using: &random)
            for file in try stored.fileKeys(ofSegments: [0], isLive: { _ in true }) {
                postings.add(file.keys.map { Trigram(key: $0) }, to: file.number == moved ? to : file.number)
            }
            let altered = TreeIndexFormat.encodeSegment(postings)
            try Data(altered).write(to: folder.appendingPathComponent(reference.name))
            manifest.segments[0] = TreeManifest.Segment(name: reference.name, size: altered.count,
                                                        headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: altered), numberLimit: reference.numberLimit)
        }
        try Data(TreeIndexFormat.encode(manifest, key: key)).write(to: folder.appendingPathComponent("index"))
        return "valid checksums \(kind)"
    }
}
