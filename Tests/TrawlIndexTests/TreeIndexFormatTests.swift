import Testing
@testable import TrawlIndex
import TrawlFiles
import TrawlMatch
import TrawlTestSupport
import TrawlText
import TrawlStorage
import TrawlNGram

/// The stored tree index: what is written is read back; a truncated or altered file is refused;
/// queries over a base segment and later ones give the files holding every literal.
@Suite struct TreeIndexFormatTests {
    /// The key these tests authenticate manifests with.
    let key = UserKey.random()

    /// The folders holding `files`, each after its parent (as a walk lists them), the root first.
    static func folders(holding files: [TreeListing.File], signature: (Int) -> FileSignature) -> [TreeListing.Directory] {
        var paths = Set<[UInt8]>([[]])
        for file in files {
            var path = TreeIndexFormat.parent(of: file.path)
            while paths.insert(path).inserted { path = TreeIndexFormat.parent(of: path) }
        }
        return paths.sorted(by: TreeListing.walkOrderPrecedes).enumerated().map { position, path in
            TreeListing.Directory(path: path, signature: signature(position), entriesHash: UInt64(position) &* 0x9E37_79B9_7F4A_7C15)
        }
    }
    struct Sample {
        var manifest: TreeManifest
        var segments: [String: [UInt8]]
        var texts: [UInt32: [UInt8]]
        /// Every file's postings in one index: what the segments together must answer.
        var whole: NGramIndex
    }

    func randomSignature(_ random: inout SeededGenerator) -> FileSignature {
        FileSignature(size: Int.random(in: 0...1 << 40, using: &random), modified: Int.random(in: -5...Int(Int32.max), using: &random) * 1000,
                      changed: Int.random(in: 0...Int(Int32.max), using: &random), inode: UInt64.random(in: 0...UInt64.max, using: &random), mode: UInt32.random(in: 0...0o177777, using: &random))
    }

    /// A base segment of 150 files and a later one of 60, with paths sharing prefixes (one not
    /// UTF-8), unindexed files, folders and watched paths of every kind.
    func sample(_ random: inout SeededGenerator) -> Sample {
        var listing = TreeListing(root: Array("/tmp/some/root".utf8), isComplete: false)
        var texts: [UInt32: [UInt8]] = [:]
        var base = NGramIndex(), later = NGramIndex(), whole = NGramIndex()
        for number in 0..<210 {
            let bytes = random.matchText(pieces: 30)
            texts[UInt32(number)] = bytes
            let keys = bytes.withUnsafeBufferPointer { Trigram.distinctKeys(in: $0) }.map { Trigram(key: $0) }
            if number < 150 { base.add(keys, to: UInt32(number)) } else { later.add(keys, to: UInt32(number)) }
            whole.add(keys, to: UInt32(number))
            var path = Array("dir\(number % 7)/sub/file\(number).txt".utf8)
            if number == 3 { path += [0xFF, 0xFE] }
            listing.files.append(TreeListing.File(path: path, number: UInt32(number), signature: randomSignature(&random)))
            if number % 13 == 0 {
                listing.files.append(TreeListing.File(path: Array("dir\(number % 7)/image\(number).png".utf8), number: nil, signature: randomSignature(&random),
                                                      skip: [nil, .binary(offset: number), .invalidUTF8(offset: number * 1000), .utf16(bigEndian: number % 2 == 0)][number % 4]))
            }
        }
        let signatures = (0..<20).map { _ in randomSignature(&random) }
        listing.directories = TreeIndexFormatTests.folders(holding: listing.files) { signatures[$0] }
        listing.watched = [
            TreeListing.Watched(path: Array("../.gitignore".utf8), signature: nil, presenceOnly: false),
            TreeListing.Watched(path: Array("../.git".utf8), signature: nil, presenceOnly: true),
            TreeListing.Watched(path: Array(".git".utf8), signature: randomSignature(&random), presenceOnly: true),
            TreeListing.Watched(path: Array("dir0/.gitignore".utf8), signature: randomSignature(&random), presenceOnly: false),
        ]
        var segments: [String: [UInt8]] = [:]
        var references: [TreeManifest.Segment] = []
        for (name, index, limit) in [("postings-00aa", base, UInt32(150)), ("postings-0bb1", later, 210)] {
            let bytes = TreeIndexFormat.encodeSegment(index)
            segments[name] = bytes
            references.append(TreeManifest.Segment(name: name, size: bytes.count, headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: bytes),
                                                   numberLimit: limit))
        }
        return Sample(manifest: TreeManifest(listing: listing, segments: references, nextNumber: 210), segments: segments, texts: texts, whole: whole)
    }

    func open(_ manifest: [UInt8], _ segments: [String: [UInt8]]) throws(TreeIndexFormat.Error) -> StoredTreeIndex {
        try StoredTreeIndex(manifest: manifest, key: key) { reference throws(TreeIndexFormat.Error) in
            guard let bytes = segments[reference.name], bytes.count == reference.size else { throw .corrupt("missing") }
            return { offset, count throws(TreeIndexFormat.Error) in
                guard offset >= 0, count >= 0, offset + count <= bytes.count else { throw .corrupt("truncated") }
                return Array(bytes[offset..<(offset + count)])
            }
        }
    }

    /// Opens the index and reads every posting list of every segment.
    func openAndReadAll(_ manifest: [UInt8], _ segments: [String: [UInt8]]) throws(TreeIndexFormat.Error) {
        let stored = try open(manifest, segments)
        _ = try stored.fileKeys(ofSegments: stored.segments.indices) { _ in true }
    }

    @Test func whatIsWrittenIsReadBack() throws {
        var random = SeededGenerator(seed: 0x7F1)
        let sample = sample(&random)
        let bytes = TreeIndexFormat.encode(sample.manifest, key: key)
        #expect(try TreeIndexFormat.decodeManifest(bytes, key: key) == sample.manifest)
        let stored = try open(bytes, sample.segments)
        for literal in ["foo", "Error", "straße", "abc", "zzzz", "func "] {
            let query = LiteralQuery.literal(QueryLiteral(literal, ignoringASCIICase: literal == "Error"))
            #expect(try stored.candidates(for: query).map { Set($0.units) } == sample.whole.units(satisfying: query), "\(literal)")
        }
        // Every file's keys, read back from both segments' lists, ascending by file.
        var expected: [UInt32: Set<UInt32>] = [:]
        for (key, list) in sample.whole.postings { for unit in list.units { expected[unit, default: []].insert(key) } }
        // Opened without its tables (as a refresh opens it), it reads them for a query.
        let unread = try StoredTreeIndex(manifest: bytes, key: key, readingTables: false) { reference throws(TreeIndexFormat.Error) in
            let segment = sample.segments[reference.name]!
            return { offset, count throws(TreeIndexFormat.Error) in Array(segment[offset..<(offset + count)]) }
        }
        let query = LiteralQuery.literal(QueryLiteral("foo", ignoringASCIICase: false))
        #expect(try unread.candidates(for: query).map { Set($0.units) } == sample.whole.units(satisfying: query))
        let all = try stored.fileKeys(ofSegments: stored.segments.indices) { $0 < 210 }
        #expect(all.map(\.number) == expected.keys.sorted())
        #expect(all.allSatisfy { Set($0.keys) == expected[$0.number] && $0.keys.count == expected[$0.number]?.count })
        let odd = try stored.fileKeys(ofSegments: stored.segments.indices) { $0 % 2 == 1 }
        #expect(odd.map(\.number) == expected.keys.sorted().filter { $0 % 2 == 1 })
    }

    /// A listing large enough that its files are encoded in parts, with the widest values each
    /// field can hold: read back the same, and refused when cut anywhere in the last varints.
    @Test func aLargeListingIsReadBack() throws {
        var random = SeededGenerator(seed: 0x7F4)
        var listing = TreeListing(root: Array("/r".utf8), isComplete: true)
        let extremes = [Int.min, Int.max, 0, -1]
        for number in 0..<10_007 {
            var signature = randomSignature(&random)
            if number % 97 == 0 {
                signature = FileSignature(size: Int.max, modified: extremes[number % 4], changed: extremes[(number / 97) % 4],
                                          inode: UInt64.max, mode: UInt32.max)
            }
            let path = Array("m\(number % 11)/\(number / 100)/f\(number).swift".utf8)
            listing.files.append(TreeListing.File(path: path, number: number % 5 == 0 ? nil : UInt32(number), signature: signature))
        }
        listing.directories = TreeIndexFormatTests.folders(holding: listing.files) { _ in randomSignature(&random) }
        let manifest = TreeManifest(listing: listing, segments: [TreeManifest.Segment(name: "postings-00aa", size: 36, headerChecksum: 7, numberLimit: 10_007)],
                                    nextNumber: 10_007)
        let bytes = TreeIndexFormat.encode(manifest, key: key)
        let decoded = try TreeIndexFormat.decodeManifest(bytes, key: key)
        #expect(decoded.listing.files.count == listing.files.count)
        let differing = listing.files.indices.first { $0 >= decoded.listing.files.count || decoded.listing.files[$0] != listing.files[$0] }
        #expect(differing == nil, "file \(differing ?? -1) differs")
        #expect(decoded == manifest)
        for cut in 1...24 {
            #expect(throws: TreeIndexFormat.Error.self) { try TreeIndexFormat.decodeManifest(Array(bytes.dropLast(cut)), key: key) }
        }
    }

    @Test func truncatedOrAlteredFilesAreRefused() throws {
        var random = SeededGenerator(seed: 0x7F2)
        let sample = sample(&random)
        let manifest = TreeIndexFormat.encode(sample.manifest, key: key)
        for length in [0, 7, 12, 35, 36, 100, manifest.count / 2, manifest.count - 1] {
            #expect(throws: TreeIndexFormat.Error.self) { try self.openAndReadAll(Array(manifest[0..<length]), sample.segments) }
        }
        for name in sample.segments.keys {
            var segments = sample.segments
            segments[name] = Array(segments[name]!.dropLast())
            #expect(throws: TreeIndexFormat.Error.self) { try self.openAndReadAll(manifest, segments) }
        }
        // Any single byte changed anywhere, in the manifest or a segment, is caught.
        for _ in 0..<300 {
            var altered = manifest
            var segments = sample.segments
            if Bool.random(using: &random) {
                altered[Int.random(in: 0..<altered.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            } else {
                let name = sample.segments.keys.sorted()[Int.random(in: 0..<2, using: &random)]
                segments[name]![Int.random(in: 0..<segments[name]!.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            #expect(throws: TreeIndexFormat.Error.self) { try self.openAndReadAll(altered, segments) }
        }
        // A segment swapped for another one is not trusted either.
        var swapped = sample.segments
        swapped["postings-00aa"] = sample.segments["postings-0bb1"]
        #expect(throws: TreeIndexFormat.Error.self) { try self.openAndReadAll(manifest, swapped) }
        #expect(throws: TreeIndexFormat.Error.notAnIndex) {
            try TreeIndexFormat.decodeManifest(Array("just some text, not an index at all....................".utf8), key: key)
        }
    }

    @Test func filesAreCandidatesExactlyWhenTheyHoldEveryLiteral() throws {
        var random = SeededGenerator(seed: 0x7F3)
        let sample = sample(&random)
        let stored = try open(TreeIndexFormat.encode(sample.manifest, key: key), sample.segments)
        for pattern in ["foo", "(?i)error", "Parse(Error|Fail)", "struct\\s+\\w+", "straße", "é+x"] {
            let matcher = try RegexMatcher(pattern, options: .regex)
            guard let candidates = try stored.candidates(for: matcher.literalQuery) else { continue }
            for (number, bytes) in sample.texts where !(try matcher.matches(in: Rope(String(decoding: bytes, as: UTF8.self))).isEmpty) {
                #expect(candidates.contains(number), "\(pattern) in file \(number)")
            }
        }
    }
}

/// A manifest is trusted only under the key of the user who built it, and only as a listing a
/// walk could have made: whatever its checksums say, a manifest listing a path out of the tree,
/// a file in no listed folder, or no folders at all is refused.
@Suite struct UntrustedManifestTests {
    let key = UserKey.random()

    func manifest(files: [String], folders: [String] = ["", "src"], watched: [String] = [".gitignore"], nextNumber: UInt32? = nil) -> TreeManifest {
        let signature = FileSignature(size: 1, modified: 2, changed: 3, inode: 4, mode: 0o100644)
        let listing = TreeListing(root: Array("/tmp/tree".utf8), isComplete: true,
                                  files: files.enumerated().map { TreeListing.File(path: Array($1.utf8), number: UInt32($0), signature: signature) },
                                  directories: folders.map { TreeListing.Directory(path: Array($0.utf8), signature: signature, entriesHash: 1) },
                                  watched: watched.map { TreeListing.Watched(path: Array($0.utf8), signature: nil, presenceOnly: false) })
        let next = nextNumber ?? UInt32(files.count)
        return TreeManifest(listing: listing, segments: [TreeManifest.Segment(name: "postings-01", size: 44, headerChecksum: 0, numberLimit: next)],
                            nextNumber: next)
    }

    @Test func aManifestMadeUnderAnotherKeyIsNotTrusted() throws {
        let made = manifest(files: ["a.txt", "src/b.txt"])
        #expect(try TreeIndexFormat.decodeManifest(TreeIndexFormat.encode(made, key: key), key: key) == made)
        #expect(throws: TreeIndexFormat.Error.notMadeHere) {
            try TreeIndexFormat.decodeManifest(TreeIndexFormat.encode(made, key: UserKey.random()), key: key)
        }
    }

    @Test(arguments: [
        (["../outside.txt"], ["", "src"], [".gitignore"]),
        (["/etc/passwd"], ["", "src"], [".gitignore"]),
        (["src/../../outside.txt"], ["", "src"], [".gitignore"]),
        (["./a.txt"], ["", "src"], [".gitignore"]),
        (["src//a.txt"], ["", "src"], [".gitignore"]),
        (["hidden/a.txt"], ["", "src"], [".gitignore"]), // in a folder not listed
        (["a.txt"], [], [".gitignore"]), // no folders: not "current", no listing at all
        (["a.txt"], ["src", ""], [".gitignore"]), // the root not first
        (["src/sub/a.txt"], ["", "src/sub"], [".gitignore"]), // a folder whose parent is not listed
        (["a.txt"], ["", ".."], [".gitignore"]),
        (["a.txt"], ["", "src"], ["../../etc/passwd"]), // watched: only ignore files and .git markers
        (["a.txt"], ["", "src"], ["elsewhere/.gitignore"]),
        (["a.txt"], ["", "src"], ["src/notes.txt"]),
        // After a good path, sharing its first bytes (only the rest is read again).
        (["src/a.txt", "src/../../x"], ["", "src"], [".gitignore"]),
        (["src/a.txt", "src/a.txt/"], ["", "src"], [".gitignore"]),
        (["src/a.txt", "src/b/c.txt"], ["", "src"], [".gitignore"]),
        (["src/..a", "src/."], ["", "src"], [".gitignore"]),
        (["src/a.txt", "sr/a.txt"], ["", "src"], [".gitignore"]),
    ])
    func aListingNoWalkCouldMakeIsRefused(files: [String], folders: [String], watched: [String]) throws {
        let bytes = TreeIndexFormat.encode(manifest(files: files, folders: folders, watched: watched), key: key)
        #expect(throws: TreeIndexFormat.Error.self) { try TreeIndexFormat.decodeManifest(bytes, key: key) }
    }

    @Test func listingsAWalkMakesAreRead() throws {
        for watched in [[".gitignore", ".git", ".git/info/exclude"], ["../.ignore", "../../.git", "src/.ignore", "src/.git/info/exclude"]] {
            let made = manifest(files: ["a.txt", "src/b.txt", "src/..c", "src/.d", "src/.d.e", "srcs.txt"], watched: watched)
            #expect(try TreeIndexFormat.decodeManifest(TreeIndexFormat.encode(made, key: key), key: key) == made)
        }
    }

    /// A next number out of all proportion to the files listed would size what a refresh
    /// allocates (a bit per number): refused, as is a segment's limit past it.
    @Test func fileNumbersOutOfProportionAreRefused() throws {
        let huge = manifest(files: ["a.txt"], nextNumber: UInt32.max)
        #expect(throws: TreeIndexFormat.Error.corrupt("bad file number")) {
            try TreeIndexFormat.decodeManifest(TreeIndexFormat.encode(huge, key: key), key: key)
        }
        var past = manifest(files: ["a.txt"])
        past.segments[0].numberLimit = 2
        #expect(throws: TreeIndexFormat.Error.corrupt("bad number limit")) {
            try TreeIndexFormat.decodeManifest(TreeIndexFormat.encode(past, key: key), key: key)
        }
    }

    /// A segment header claiming more trigrams than three bytes make is refused from its header,
    /// before its table is read (a sparse file can match any size it claims).
    @Test func aSegmentClaimingBillionsOfTrigramsIsRefusedFromItsHeader() throws {
        var header = Array("TRAWLSG\0".utf8)
        StoredFormat.appendUInt(UInt64(TreeIndexFormat.version), 4, to: &header)
        let count = 1 << 32, postings = 8
        StoredFormat.appendUInt(UInt64(count), 8, to: &header)
        StoredFormat.appendUInt(UInt64(postings), 8, to: &header)
        StoredFormat.appendUInt(StoredFormat.checksum(header[...]), 8, to: &header)
        let size = TreeIndexFormat.headerLength + count * TreeIndexFormat.tableEntryLength + 8 + postings
        let reference = TreeManifest.Segment(name: "postings-01", size: size, headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: header), numberLimit: 1)
        let headerBytes = header
        #expect(throws: TreeIndexFormat.Error.corrupt("bad layout")) {
            _ = try StoredSegment(reference, numberLimit: 1, read: { offset, count throws(TreeIndexFormat.Error) in
                guard offset == 0, count <= headerBytes.count else { throw .corrupt("read past the header") }
                return Array(headerBytes[0..<count])
            })
        }
    }
}
