import Testing
import TrawlIndex
import TrawlMatch
import TrawlTestSupport
import TrawlText

/// The stored tree index: what is written is read back; a truncated or altered file is refused.
@Suite struct TreeIndexFormatTests {
    func randomIndex(_ random: inout SeededGenerator) -> TreeIndex {
        var index = TreeIndex()
        for number in 0..<120 {
            let bytes = random.matchText(pieces: 40)
            let keys = bytes.withUnsafeBufferPointer { TreeIndex.trigramKeys(in: $0) }
            let file = TreeIndex.File(path: "dir\(number % 7)/file\(number).txt", size: bytes.count,
                                      modified: Int.random(in: -5...Int(Int32.max), using: &random) * 1000, inode: UInt64(number * 31))
            index.add(file, keys: keys)
        }
        // Some removed: free slots in the stored table.
        index.remove(paths: (0..<120).filter { $0 % 9 == 0 }.map { "dir\($0 % 7)/file\($0).txt" })
        return index
    }

    func sameContent(_ a: TreeIndex, _ b: TreeIndex) -> Bool {
        a.files == b.files && a.trigrams.postings.mapValues(\.units) == b.trigrams.postings.mapValues(\.units)
    }

    @Test func whatIsWrittenIsReadBack() throws {
        var random = SeededGenerator(seed: 0x7F1)
        let index = randomIndex(&random)
        let bytes = TreeIndexFormat.encode(index)
        let decoded = try TreeIndexFormat.decode(bytes)
        #expect(sameContent(index, decoded))
        // Queries agree, read lazily from the stored bytes.
        let stored = try StoredTreeIndex(size: bytes.count) { offset, count in Array(bytes[offset..<(offset + count)]) }
        for literal in ["foo", "Error", "straße", "abc", "zzzz", "func "] {
            let query = LiteralQuery.literal(QueryLiteral(literal, ignoringASCIICase: literal == "Error"))
            #expect(try stored.candidates(for: query) == index.candidates(for: query))
        }
    }

    @Test func truncatedOrAlteredFilesAreRefused() throws {
        var random = SeededGenerator(seed: 0x7F2)
        let bytes = TreeIndexFormat.encode(randomIndex(&random))
        for length in [0, 7, 12, 51, 52, 100, bytes.count / 2, bytes.count - 1] {
            #expect(throws: TreeIndexFormat.Error.self) { try TreeIndexFormat.decode(Array(bytes[0..<length])) }
        }
        // Any single byte changed anywhere is caught.
        for _ in 0..<300 {
            var altered = bytes
            let at = Int.random(in: 0..<bytes.count, using: &random)
            altered[at] ^= UInt8.random(in: 1...255, using: &random)
            #expect(throws: TreeIndexFormat.Error.self) { try TreeIndexFormat.decode(altered) }
        }
        #expect(throws: TreeIndexFormat.Error.notAnIndex) { try TreeIndexFormat.decode(Array("just some text, not an index at all....................".utf8)) }
    }

    @Test func filesAreCandidatesExactlyWhenTheyHoldEveryLiteral() throws {
        var random = SeededGenerator(seed: 0x7F3)
        var texts: [String: [UInt8]] = [:]
        var index = TreeIndex()
        for number in 0..<200 {
            let bytes = random.matchText(pieces: 30)
            let path = "f\(number)"
            texts[path] = bytes
            index.add(TreeIndex.File(path: path, size: bytes.count, modified: 0, inode: 0), keys: bytes.withUnsafeBufferPointer { TreeIndex.trigramKeys(in: $0) })
        }
        for pattern in ["foo", "(?i)error", "Parse(Error|Fail)", "struct\\s+\\w+", "straße", "é+x"] {
            let matcher = try RegexMatcher(pattern, options: .regex)
            guard let candidates = index.candidates(for: matcher.literalQuery) else { continue }
            for (path, bytes) in texts where !(try matcher.matches(in: Rope(String(decoding: bytes, as: UTF8.self))).isEmpty) {
                #expect(candidates.contains(index.entry(at: path)!.number), "\(pattern) in \(path)")
            }
        }
    }
}
