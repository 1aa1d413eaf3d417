import Testing
import TrawlIndex
import TrawlTestSupport
@testable import TrawlCatalog

/// The stored catalog: what goes in comes out, old files still read, damage is an error.
@Suite struct CatalogFormatTests {
    /// Items that exercise every kind of reference: several blocks, unsearched fields, attributes
    /// with no values or repeated values, the same text under two attributes, non-ASCII, replaced
    /// and deleted items (insertion order kept).
    static func catalog(seed: UInt64, count: Int) -> Catalog {
        var random = SeededGenerator(seed: seed)
        var catalog = Catalog(fields: [CatalogField("title", weight: 3), CatalogField("body", weight: -1)])
        catalog.scopeAttribute = "section"
        var items: [CatalogItem] = []
        for number in 0..<count {
            var item = CatalogDifferentialTests.randomItem(&random, id: number)
            switch Int.random(in: 0..<8, using: &random) {
            case 0: item.fields["notes"] = "un-searched \(number) ünïcödé"
            case 1: item.attributes["empty"] = []
            case 2: item.attributes["tags"] = ["a", "a", "net"]
            case 3: item.attributes["kind"] = ["net", "kind\(number % 7)"]
            case 4: item.fields = [:]
            case 5: item.attributes = [:]
            case 6: item.fields["title"] = ""
            default: break
            }
            items.append(item)
        }
        catalog.upsert(contentsOf: items)
        for _ in 0..<(count / 10) {
            let id = "item\(Int.random(in: 0..<count, using: &random))"
            if Bool.random(using: &random) {
                catalog.delete(id: id)
            } else {
                catalog.upsert(CatalogDifferentialTests.randomItem(&random, id: Int(id.dropFirst(4))!))
            }
        }
        catalog.upsert(CatalogItem(id: "late", fields: ["comment": "only a field no catalog searches"], attributes: ["only-empty": []]))
        return catalog
    }

    @Test(arguments: [0, 1, 1023, 1024, 1025, 3000])
    func whatIsEncodedDecodesToTheSameItemsInTheSameOrder(count: Int) throws {
        let catalog = Self.catalog(seed: UInt64(count) + 7, count: count)
        let decoded = try CatalogFormat.decode(CatalogFormat.encode(catalog))
        #expect(decoded.allItems.count == catalog.allItems.count)
        if let first = zip(decoded.allItems, catalog.allItems).first(where: { $0 != $1 }) { Issue.record("decoded \(first.0), stored \(first.1)") }
        #expect(decoded.fields == catalog.fields && decoded.scopeAttribute == "section")
        let query = CatalogQuery(text: "net", facets: ["tags", "kind"])
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        #expect(searcher.search(query, in: decoded).hits.map(\.id) == other.search(query, in: catalog).hits.map(\.id))
    }

    /// The writer (items as they come, no catalog) gives the bytes of the catalog of the same items.
    @Test(arguments: [0, 5, 1024, 2500])
    func aWriterGivesTheBytesOfTheCatalogOfTheSameItems(count: Int) throws {
        var random = SeededGenerator(seed: UInt64(count) + 99)
        let fields = [CatalogField("title", weight: 3), CatalogField("body", weight: -1)]
        var writer = CatalogWriter(fields: fields)
        var items: [CatalogItem] = []
        for number in 0..<count {
            var item = CatalogDifferentialTests.randomItem(&random, id: number)
            switch number % 9 {
            case 0: item.fields["notes"] = "un-searched"
            case 1: item.attributes["empty"] = []
            case 2: item.attributes["kind"] = ["net", "a", "net"]
            default: break
            }
            items.append(item)
            writer.append(item)
        }
        var catalog = Catalog(fields: fields, items: items)
        catalog.scopeAttribute = "kind"
        let written = writer.bytes(scopeAttribute: "kind")
        #expect(writer.count == count)
        #expect(written == CatalogFormat.encode(catalog))
        #expect(try CatalogFormat.decode(written).allItems == items)
    }

    @Test func theItemsAreStoredCompressedWithNamesAndValuesOnce() {
        var catalog = Catalog()
        let words = ["stream", "parser", "network", "render", "library", "python", "tools", "data"]
        catalog.upsert(contentsOf: (0..<5000).map { number in
            CatalogItem(id: "package-\(number)",
                        fields: ["title": "\(words[number % 8])-\(words[number / 8 % 8])", "body": (0..<8).map { words[(number + $0 * 3) % 8] }.joined(separator: " ")],
                        attributes: ["section": ["section-\(number % 10)"], "tags": ["role::program", "interface::commandline"]])
        })
        let stored = CatalogFormat.encode(catalog).count
        let text = catalog.allItems.reduce(0) { total, item in
            total + item.id.utf8.count + item.fields.values.reduce(0) { $0 + $1.utf8.count } + item.attributes.values.joined().reduce(0) { $0 + $1.utf8.count }
        }
        #expect(stored * 3 < text, "\(stored) bytes stored for \(text) bytes of text")
    }

    /// Version 1, written as the previous release wrote it.
    @Test func aVersionOneCatalogIsStillRead() throws {
        var body: [UInt8] = []
        func varint(_ value: Int) { TreeIndexFormat.appendVarint(UInt64(value), to: &body) }
        func string(_ text: String) { varint(text.utf8.count); body += text.utf8 }
        varint(2); string("title"); varint(4); string("body"); varint(2)
        string("section")
        varint(2)
        string("p1"); varint(2); string("body"); string("a tool"); string("title"); string("zeta")
        varint(2); string("section"); varint(1); string("utils"); string("tags"); varint(2); string("x"); string("y")
        string("p2"); varint(1); string("title"); string("alpha"); varint(0)
        var file = Array("TRAWLCT\0".utf8)
        TreeIndexFormat.appendUInt(1, 4, to: &file)
        TreeIndexFormat.appendUInt(UInt64(body.count), 8, to: &file)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(body[...]), 8, to: &file)
        TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(file[...]), 8, to: &file)
        let catalog = try CatalogFormat.decode(file + body)
        #expect(catalog.fields == [CatalogField("title", weight: 2), CatalogField("body", weight: 1)])
        #expect(catalog.scopeAttribute == "section")
        #expect(catalog.allItems == [CatalogItem(id: "p1", fields: ["title": "zeta", "body": "a tool"], attributes: ["section": ["utils"], "tags": ["x", "y"]]),
                                     CatalogItem(id: "p2", fields: ["title": "alpha"])])
    }

    /// A damaged body whose checksums were made to match again (what the checksum cannot catch)
    /// is an error or a catalog, never a crash or a hang.
    @Test func damageBehindMatchingChecksumsIsAnErrorOrACatalog() throws {
        let good = CatalogFormat.encode(Self.catalog(seed: 3, count: 1500))
        var random = SeededGenerator(seed: 11)
        var errors = 0
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let offset = Int.random(in: CatalogFormat.headerLength..<bytes.count, using: &random)
                bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
            }
            if Bool.random(using: &random) { bytes.removeLast(Int.random(in: 1...64, using: &random)) }
            var header = Array(bytes[0..<12])
            TreeIndexFormat.appendUInt(UInt64(bytes.count - CatalogFormat.headerLength), 8, to: &header)
            TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(bytes[CatalogFormat.headerLength...]), 8, to: &header)
            TreeIndexFormat.appendUInt(TreeIndexFormat.checksum(header[...]), 8, to: &header)
            bytes.replaceSubrange(0..<CatalogFormat.headerLength, with: header)
            do {
                _ = try CatalogFormat.decode(bytes)
            } catch {
                errors += 1
            }
        }
        #expect(errors > 250, "only \(errors) of 300 damaged files were refused")
    }

    @Test func aDamagedFileFailsItsChecksum() {
        var bytes = CatalogFormat.encode(Self.catalog(seed: 5, count: 100))
        bytes[bytes.count - 5] ^= 0x40
        #expect(throws: TreeIndexFormat.Error.corrupt("body checksum")) { try CatalogFormat.decode(bytes) }
        #expect(throws: TreeIndexFormat.Error.corrupt("truncated")) { try CatalogFormat.decode(Array(bytes.dropLast())) }
    }
}
