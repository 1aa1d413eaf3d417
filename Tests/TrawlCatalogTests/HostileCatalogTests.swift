import Foundation
import SystemPackage
import Testing
import TrawlIndex
import TrawlTestSupport
@testable import TrawlCatalog
import TrawlStorage

/// A stored catalog may be hostile or damaged: a FIFO or a link in its place, a size it does not
/// have, bytes mutated with their checksums made again, one word of megabytes. Loading refuses or
/// reads it, in time about its bytes, and never crashes, hangs or allocates by what it claims.
@Suite struct HostileCatalogTests {
    func folderWithCatalog(_ items: [CatalogItem]) throws -> FilePath {
        let folder = FilePath(try temporaryFolder("hostile-catalog").path)
        try CatalogStore.save(Catalog(items: items), in: folder)
        return folder
    }

    static let items = (0..<300).map { number in
        CatalogItem(id: "item\(number)", fields: ["title": "tool \(number % 17) for data", "body": "a library of parsing number \(number)"],
                    attributes: ["section": ["s\(number % 5)"]])
    }

    @Test func aFIFOOrALinkInPlaceOfTheCatalogIsRefusedWithoutBlocking() throws {
        let folder = try folderWithCatalog(Self.items)
        let file = CatalogStore.path(in: folder)
        let saved = try Data(contentsOf: URL(fileURLWithPath: file.string))
        unlink(file.string)
        try #require(mkfifo(file.string, 0o644) == 0)
        #expect(throws: (any Error).self) { try CatalogStore.load(from: folder) }
        unlink(file.string)
        let elsewhere = try temporaryFolder("catalog-elsewhere").appendingPathComponent("catalog")
        try saved.write(to: elsewhere)
        try #require(symlink(elsewhere.path, file.string) == 0)
        #expect(throws: (any Error).self) { try CatalogStore.load(from: folder) }
    }

    /// A catalog grown to 50 GB (sparse), or whose header claims such a body: refused from the
    /// header, nothing of that size read or allocated.
    @Test func aHugeSparseCatalogIsRefusedFromItsHeader() throws {
        let folder = try folderWithCatalog(Self.items)
        let file = CatalogStore.path(in: folder)
        try #require(truncate(file.string, 50 << 30) == 0)
        #expect(throws: TreeIndexFormat.Error.corrupt("truncated")) { try CatalogStore.load(from: folder) }
        // A header that agrees with the 50 GB (its checksum made again): past the size limit.
        var header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file.string), options: .alwaysMapped).prefix(36))
        let body = UInt64((50 << 30) - 36)
        for shift in 0..<8 { header[12 + shift] = UInt8(truncatingIfNeeded: body >> (8 * UInt64(shift))) }
        let checksum = StoredFormat.checksum(header[0..<28])
        for shift in 0..<8 { header[28 + shift] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(shift))) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.string))
        try handle.write(contentsOf: Data(header))
        try handle.close()
        #expect(throws: TreeIndexFormat.Error.self) { try CatalogStore.load(from: folder) }
    }

    /// One word of four megabytes: stored and loaded in time about its bytes (its trigrams
    /// collected once each, the trie no deeper than its limit, a typo walk's rows sized by the
    /// query), and still found by a prefix and in full.
    @Test func aWordOfMegabytesLoadsAndIsFound() throws {
        let long = String(repeating: "ab", count: 2_000_000)
        let folder = try folderWithCatalog([CatalogItem(id: "long", fields: ["title": long]), CatalogItem(id: "short", fields: ["title": "hello world"])])
        let catalog = try CatalogStore.load(from: folder)
        var searcher = CatalogSearcher()
        #expect(searcher.search(CatalogQuery(text: "abababab"), in: catalog).hits.map(\.id) == ["long"])
        #expect(searcher.search(CatalogQuery(text: String(long.prefix(1000))), in: catalog).hits.map(\.id) == ["long"])
        #expect(searcher.search(CatalogQuery(text: "hellp"), in: catalog).hits.map(\.id) == ["short"])
        // The word's distinct trigrams, not a posting per position: "aba" and "bab".
        #expect(catalog.statistics.trigramPostings <= 20)
    }

    /// Seeded mutations of a real stored catalog, with checksums left as they are and made again:
    /// each load throws or gives a catalog that searches, never a crash or a hang.
    @Test func mutatedCatalogsNeverCrash() throws {
        let bytes = CatalogFormat.encode(Catalog(items: Self.items))
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xCA7A))
        var loaded = 0
        for round in 0..<(300 * PropertyTestSettings.scale) {
            var mutated = bytes
            switch round % 5 {
            case 0: for _ in 0..<Int.random(in: 1...4, using: &random) { mutated[Int.random(in: 0..<mutated.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random) }
            case 1: mutated = Array(mutated.prefix(Int.random(in: 0..<mutated.count, using: &random)))
            case 2: mutated += (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            case 3: let at = Int.random(in: 36..<mutated.count, using: &random); for offset in at..<min(mutated.count, at + 9) { mutated[offset] = 0xFF }
            default: mutated[Int.random(in: 36..<mutated.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            // Half the time every checksum is made again, so the mutation reaches the decoder.
            if round % 2 == 0 && mutated.count >= 36 {
                let body = UInt64(mutated.count - 36)
                for shift in 0..<8 { mutated[12 + shift] = UInt8(truncatingIfNeeded: body >> (8 * UInt64(shift))) }
                let bodyChecksum = StoredFormat.checksum(mutated[36...])
                for shift in 0..<8 { mutated[20 + shift] = UInt8(truncatingIfNeeded: bodyChecksum >> (8 * UInt64(shift))) }
                let headerChecksum = StoredFormat.checksum(mutated[0..<28])
                for shift in 0..<8 { mutated[28 + shift] = UInt8(truncatingIfNeeded: headerChecksum >> (8 * UInt64(shift))) }
            }
            if let catalog = try? CatalogFormat.decode(mutated) {
                loaded += 1
                var searcher = CatalogSearcher()
                _ = searcher.search(CatalogQuery(text: "tool data"), in: catalog)
                _ = searcher.search(CatalogQuery(text: "parsng"), in: catalog)
            }
        }
        // Most mutations are refused; the ones that load were searched without a crash.
        #expect(loaded < 300 * PropertyTestSettings.scale)
    }
}
