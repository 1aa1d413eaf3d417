import Foundation
import SystemPackage
import Testing
import TrawlIndex
import TrawlTestSupport
@testable import TrawlCatalog
import TrawlStorage

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

    /// Items read a few at a time (each block decoded for them alone, the block's other items
    /// read past) are the items stored: one by one, a search's page at once, then all the rest.
    @Test func itemsReadAFewAtATimeAreTheItemsStored() throws {
        let catalog = Self.catalog(seed: 11, count: 1100)
        let expected = catalog.allItems
        let decoded = try CatalogFormat.decode(CatalogFormat.encode(catalog))
        var random = SeededGenerator(seed: 12)
        for item in expected.shuffled(using: &random).prefix(200) {
            #expect(decoded[item.id] == item)
        }
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        let query = CatalogQuery(text: "net", limit: 100)
        #expect(searcher.search(query, in: decoded).hits.map(\.item) == other.search(query, in: catalog).hits.map(\.item))
        #expect(decoded.allItems == expected)
    }

    /// A stored catalog searched where it lies in its file (its index not read whole) gives what
    /// the catalog it stores gives, and what the oracle gives: hits, ranks, counts, facets, with
    /// filters, typos, prefixes and words inside words, on both ranking paths, after updates and
    /// deletes (moved insertion orders, retired numbers), with a searcher refining keystrokes.
    @Test(arguments: CatalogDifferentialTests.rankingPaths)
    func aStoredCatalogSearchedInPlaceSearchesLikeTheCatalogItStores(postingsRankingMinimum: Int) throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 21))
        for round in 0..<(4 * PropertyTestSettings.scale) {
            let fields = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)]
            var items = (0..<Int.random(in: 1...300, using: &random)).map { CatalogDifferentialTests.randomItem(&random, id: $0) }
            var catalog = CatalogDifferentialTests.catalog(fields: fields, items: items, postingsRankingMinimum: postingsRankingMinimum)
            // Updates and deletes, each one at a time (so that their numbers are retired).
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                let index = Int.random(in: 0..<items.count, using: &random)
                if Bool.random(using: &random), items.count > 1 {
                    catalog.delete(id: items[index].id)
                    items.remove(at: index)
                } else {
                    let id = Int(items[index].id.dropFirst(4))!
                    items[index] = CatalogDifferentialTests.randomItem(&random, id: id)
                    catalog.upsert(items[index])
                }
            }
            let stored = try CatalogFormat.decode(CatalogFormat.encode(catalog))
            #expect(stored.storedIndex != nil, "read in place")
            let oracle = CatalogOracle(fields: fields, items: catalog.allItems)
            var typing = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
            for _ in 0..<40 {
                let query = CatalogDifferentialTests.randomQuery(&random)
                var fresh = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
                var memory = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
                let results = fresh.search(query, in: stored), expected = memory.search(query, in: catalog)
                #expect(results.hits.map(\.id) == expected.hits.map(\.id) && results.hits.map(\.rank) == expected.hits.map(\.rank),
                        "round \(round) query \(query)")
                #expect(results.matchCount == expected.matchCount && results.facets == expected.facets, "round \(round) query \(query)")
                #expect(results.hits.map(\.highlights) == expected.hits.map(\.highlights), "round \(round) query \(query)")
                CatalogDifferentialTests.expectAgree(results, oracle, query, "round \(round)")
                // A keystroke at a time, refining.
                var prefix = query
                for end in query.text.indices {
                    prefix.text = String(query.text[...end])
                    _ = typing.search(prefix, in: stored)
                }
                #expect(typing.search(query, in: stored).hits.map(\.id) == results.hits.map(\.id), "round \(round) query \(query)")
            }
            let text = ["ne", "t", "w", "co"].randomElement(using: &random)!
            #expect(stored.completions(of: text) == catalog.completions(of: text))
            #expect(stored.suggestedFilters(for: text) == catalog.suggestedFilters(for: text))

            // Updated as opened (what is added goes in memory after what lies in the file): new
            // words and values, replaced and deleted items, now and then an item with two values
            // of an attribute that had a column, which reads the stored index whole.
            var updated = stored
            // Not stored: a test's lower bar for prefix lists.
            updated.prefixPostingsMinimum = catalog.prefixPostingsMinimum
            for step in 0..<Int.random(in: 1...30, using: &random) {
                var item = CatalogDifferentialTests.randomItem(&random, id: Int.random(in: 0..<400, using: &random))
                switch Int.random(in: 0..<10, using: &random) {
                case 0: item.fields["title"] = "zephyr\(step) quokka"
                case 1: item.attributes["section"] = ["novel\(step % 3)"]
                case 2 where round % 2 == 1: item.attributes["section"] = ["web", "net"]
                case 3: item.attributes["colour"] = ["blue"]
                default: break
                }
                if Int.random(in: 0..<5, using: &random) == 0 {
                    catalog.delete(id: item.id)
                    updated.delete(id: item.id)
                } else {
                    catalog.upsert(item)
                    updated.upsert(item)
                }
            }
            for text in ["zephyr", "quokka", "ne", "t", "web net", "a"] + (0..<10).map({ _ in CatalogDifferentialTests.randomQuery(&random).text }) {
                for filters in [[], [CatalogFilter("section", "web")], [CatalogFilter("tags", "a")], [CatalogFilter("colour", "blue")]] {
                    let query = CatalogQuery(text: text, filters: filters, limit: 20, facets: ["section", "tags", "colour"])
                    var fresh = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
                    var memory = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
                    let results = fresh.search(query, in: updated), expected = memory.search(query, in: catalog)
                    #expect(results.hits.map(\.id) == expected.hits.map(\.id) && results.hits.map(\.rank) == expected.hits.map(\.rank)
                            && results.matchCount == expected.matchCount && results.facets == expected.facets, "updated, round \(round) query \(query)")
                }
            }
            #expect(updated.allItems == catalog.allItems)
            #expect(CatalogFormat.encode(updated) == CatalogFormat.encode(catalog), "updated as opened, stored again: round \(round)")
        }
    }

    /// A text of random pieces: words as spelled (case, diacritics, other scripts), and
    /// separators (punctuation runs, newlines, emoji, lone combining marks, which stand apart from
    /// words only between separators), at either end too.
    static func randomText(_ random: inout SeededGenerator) -> String {
        let words = ["net", "Net", "NET", "crème", "Crème", "CRÈME", "e\u{301}tude", "naïve", "日本語", "Ωmega", "x2", "42", "ǅemal", "straße", "i\u{307}x"]
        let separators = [" ", " ", " ", ", ", ". ", "\n", "\t", "-", "::", " \u{301} ", " 🙂 ", "—", "  "]
        var text = ""
        if Int.random(in: 0..<4, using: &random) == 0 { text += ["\u{301}", "\u{301} ", " ", "(", "🙂"].randomElement(using: &random)! }
        for index in 0..<Int.random(in: 0...6, using: &random) {
            if index > 0 { text += separators.randomElement(using: &random)! }
            text += words.randomElement(using: &random)!
        }
        if Int.random(in: 0..<4, using: &random) == 0 { text += [" \u{301}", "\u{301}", ".", ")", " "].randomElement(using: &random)! }
        return text
    }

    /// Searched texts are stored as ranks of their words and separators: every spelling and
    /// separator comes back as it was, and the words loading numbers without folding the text
    /// are those folding it gives.
    @Test(arguments: [1, 2, 3])
    func searchedTextsComeBackAsSpelledAndTheirWordsAsFolded(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var items: [CatalogItem] = []
        for number in 0..<(600 * Int(seed)) {
            var item = CatalogItem(id: "item\(number)", fields: ["title": Self.randomText(&random), "body": Self.randomText(&random)])
            if Int.random(in: 0..<6, using: &random) == 0 { item.fields["body"] = nil }
            if Int.random(in: 0..<6, using: &random) == 0 { item.fields["notes"] = Self.randomText(&random) }
            items.append(item)
        }
        let catalog = Catalog(items: items)
        let decoded = try CatalogFormat.decode(CatalogFormat.encode(catalog))
        if let first = zip(decoded.allItems, items).first(where: { $0 != $1 }) { Issue.record("decoded \(first.0), stored \(first.1)") }
        for (number, item) in zip(decoded.liveNumbersInOrder, items) {
            for (field, searched) in decoded.fields.enumerated() {
                let indexed = decoded.words(of: number, field: field).map { decoded.vocabulary.string($0) }
                #expect(indexed == WordFolding.words(of: item.fields[searched.name] ?? ""), "\(item.id) \(searched.name)")
            }
        }
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        for text in ["net", "creme", "etude", "naive", "omega", "net creme", "strasse", "cr", "42 x2"] {
            let query = CatalogQuery(text: text)
            #expect(searcher.search(query, in: decoded).hits.map(\.id) == other.search(query, in: catalog).hits.map(\.id), "\(text)")
        }
    }

    /// Storing items without the word index writes the bytes their indexed catalog stores: items
    /// in several blocks and folded ahead, a replaced id, an unsearched field, the scope kept,
    /// whatever count of items was expected.
    @Test func itemsStoredWithoutTheWordIndexAreTheirCatalogsBytes() throws {
        var random = SeededGenerator(seed: 29)
        var items = (0..<2600).map { CatalogDifferentialTests.randomItem(&random, id: $0) }
        items[7].fields["notes"] = "un-searched ünïcödé"
        items.append(CatalogDifferentialTests.randomItem(&random, id: 3))
        let fields = [CatalogField("body", weight: 1), CatalogField("title", weight: 4)]
        var catalog = Catalog(fields: fields, items: items)
        catalog.scopeAttribute = "section"
        let encoded = CatalogFormat.encode(items, fields: fields, scopeAttribute: "section")
        let (bytes, count) = (encoded.bytes, encoded.count)
        #expect(count == catalog.count)
        #expect(encoded.parts.count > 2, "the blocks are parts of their own")
        #expect(bytes == CatalogFormat.encode(catalog))
        #expect(try CatalogFormat.decode(bytes).scopeAttribute == "section")
        // The expected count is room made, not an answer: too few or too many, the same bytes.
        for expected in [1, 100_000] {
            let hinted = CatalogFormat.encode(items, fields: fields, scopeAttribute: "section", expectedCount: expected)
            #expect(hinted.count == count && hinted.bytes == bytes, "expecting \(expected)")
        }
    }

    /// The store writes the parts back to back: the file holds the catalog's bytes, and loads.
    @Test func theStoreWritesTheBytesTheFormatGives() throws {
        let catalog = Self.catalog(seed: 41, count: 3000)
        let folder = FilePath(try temporaryFolder("catalog-store").path).appending("nested/catalog")
        try CatalogStore.save(catalog, in: folder)
        let written = try Data(contentsOf: URL(fileURLWithPath: CatalogStore.path(in: folder).string))
        let bytes = CatalogFormat.encode(catalog)
        #expect(CatalogFormat.encoded(catalog).parts.count > 2)
        #expect(written.elementsEqual(bytes))
        #expect(try CatalogStore.load(from: folder).allItems == catalog.allItems)
    }

    /// Equal catalogs store equal bytes, and storing a loaded catalog gives the bytes it came from.
    @Test func equalCatalogsStoreEqualBytes() throws {
        var random = SeededGenerator(seed: 17)
        let items = (0..<2500).map { CatalogDifferentialTests.randomItem(&random, id: $0) }
        let bytes = CatalogFormat.encode(Catalog(items: items))
        #expect(bytes == CatalogFormat.encode(Catalog(items: items)))
        #expect(bytes == CatalogFormat.encode(try CatalogFormat.decode(bytes)))
    }

    /// A lexicon whose spelling is not one word, or whose separator holds a word or would join
    /// two words, is refused: loading trusts the stored words to be the text's.
    @Test(arguments: [
        (["net", "cr me"], [" ", ""], [0, 1], [0, 1, 1], "a spelling that is not one word"),
        (["net", "tool"], [" ", "x "], [0, 1], [0, 1, 0], "a separator holding a word"),
        (["net", "tool"], [" ", ""], [0, 1], [1, 1, 1], "a separator that joins words"),
        (["net", "tool"], [" ", "\u{301} "], [0, 1], [1, 0, 0], nil),
        (["net", "tool"], [" ", " \u{301}"], [0, 1], [0, 1, 0], "a separator that joins words"),
        (["net", "tool"], [" ", " \u{301}"], [0, 1], [1, 0, 0], "a separator that joins words"),
        (["net", "tool"], [" ", "\u{301} "], [0, 1], [0, 0, 1], "a separator that joins words"),
        (["net", "tool"], [" ", " \u{301}"], [0, 1], [0, 0, 1], nil),
        (["net", "tool"], [" ", "\u{301}"], [], [1], nil),
        (["net"], [" "], [0, 0], [0, 0], "words left over in a block"),
        (["net"], [" "], [0], [0, 0, 0], "more words than a block holds"),
        (["net"], [" "], [0, 1], [0, 0, 0], "bad word rank"),
        (["net"], [" "], [0], [0, 1], "bad separator rank"),
    ] as [([String], [String], [Int], [Int], String?)])
    func aLexiconThatWouldChangeTheWordsIsRefused(spellings: [String], separators: [String], words: [Int], separatorRanks: [Int], error: String?) throws {
        let bytes = Self.storedCatalog(spellings: spellings, separators: separators, title: (words: words, separators: separatorRanks))
        if let error {
            #expect(throws: TreeIndexFormat.Error.corrupt(error)) { try CatalogFormat.decode(bytes) }
        } else {
            let catalog = try CatalogFormat.decode(bytes)
            let text = separatorRanks.indices.map { index in
                separators[separatorRanks[index]] + (index < separatorRanks.count - 1 ? spellings[words[index]] : "")
            }.joined()
            #expect(catalog.allItems == [CatalogItem(id: "p", fields: ["title": text])])
        }
    }

    /// A version 3 file of one item "p" whose title has as many words as its separators less one,
    /// its words (in the words part) and its separators given by rank; written by hand.
    static func storedCatalog(spellings: [String], separators: [String], title: (words: [Int], separators: [Int])) -> [UInt8] {
        func varint(_ value: Int, _ out: inout [UInt8]) { StoredFormat.appendVarint(UInt64(value), to: &out) }
        func string(_ text: String, _ out: inout [UInt8]) { varint(text.utf8.count, &out); out += text.utf8 }
        var body: [UInt8] = []
        varint(1, &body); string("title", &body); varint(4, &body)
        string("", &body)
        varint(0, &body); varint(0, &body)
        var lexicon: [UInt8] = []
        for text in spellings + separators { string(text, &lexicon) }
        varint(spellings.count, &body); varint(separators.count, &body)
        CatalogBlock.appendDeflated(lexicon, to: &body)
        varint(1, &body); varint(1, &body)
        var structure: [UInt8] = []
        varint(0, &structure)
        string("p", &structure)
        varint(1, &structure); varint(0, &structure)
        varint(title.separators.count - 1, &structure)
        for rank in title.separators { varint(rank, &structure) }
        varint(0, &structure)
        var words: [UInt8] = []
        varint(title.words.count, &words)
        for rank in title.words { words.append(UInt8(rank)) }
        varint(1, &body)
        CatalogBlock.appendDeflated(structure, to: &body)
        CatalogBlock.appendDeflated(words, to: &body)
        var file = Array("TRAWLCT\0".utf8)
        StoredFormat.appendUInt(3, 4, to: &file)
        StoredFormat.appendUInt(UInt64(body.count), 8, to: &file)
        StoredFormat.appendUInt(StoredFormat.checksum(body[...]), 8, to: &file)
        StoredFormat.appendUInt(StoredFormat.checksum(file[...]), 8, to: &file)
        return file + body
    }

    /// Versions 2 to 5, as earlier releases stored the fixtures' catalog: read (indexed again),
    /// and searched as the catalog they hold.
    @Test(arguments: [2, 3, 4, 5]) func anOlderVersionIsStillRead(version: Int) throws {
        let stored = try [UInt8](Data(contentsOf: fixturesDirectory.appendingPathComponent("catalog/version-\(version).catalog")))
        let lines = try String(contentsOf: fixturesDirectory.appendingPathComponent("catalog/packages.jsonl"), encoding: .utf8)
        let items = try lines.split(separator: "\n").map { try CatalogItem(jsonLine: String($0)) }
        let catalog = try CatalogFormat.decode(stored)
        #expect(StoredFormat.readUInt(stored, 8, 4) == UInt64(version))
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        let query = CatalogQuery(text: "lib", limit: 400, facets: ["section"])
        let fresh = Catalog(items: items)
        #expect(searcher.search(query, in: catalog).hits.map(\.id) == other.search(query, in: fresh).hits.map(\.id))
        #expect(items.count == 319 && catalog.allItems == items)
        #expect(catalog.scopeAttribute == "section")
    }

    @Test func theItemsAreStoredCompressedWithNamesAndValuesOnce() throws {
        var catalog = Catalog()
        let words = ["stream", "parser", "network", "render", "library", "python", "tools", "data"]
        catalog.upsert(contentsOf: (0..<5000).map { number in
            CatalogItem(id: "package-\(number)",
                        fields: ["title": "\(words[number % 8])-\(words[number / 8 % 8])", "body": (0..<8).map { words[(number + $0 * 3) % 8] }.joined(separator: " ")],
                        attributes: ["section": ["section-\(number % 10)"], "tags": ["role::program", "interface::commandline"]])
        })
        // The items' part of the file: the lexicon and the blocks (the word index beside them
        // is stored as it is searched).
        let bytes = CatalogFormat.encode(catalog)
        let sections = try bytes.withUnsafeBytes { raw in
            try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: raw[(CatalogFormat.headerLength + 4)...]), expected: CatalogFormat.Section.count)
        }
        let stored = sections.range(CatalogFormat.Section.lexicon).count + sections.range(CatalogFormat.Section.blocks).count
        let text = catalog.allItems.reduce(0) { total, item in
            total + item.id.utf8.count + item.fields.values.reduce(0) { $0 + $1.utf8.count } + item.attributes.values.joined().reduce(0) { $0 + $1.utf8.count }
        }
        #expect(stored * 3 < text, "\(stored) bytes stored for \(text) bytes of text")
    }

    /// Version 1, written as the previous release wrote it.
    @Test func aVersionOneCatalogIsStillRead() throws {
        var body: [UInt8] = []
        func varint(_ value: Int) { StoredFormat.appendVarint(UInt64(value), to: &body) }
        func string(_ text: String) { varint(text.utf8.count); body += text.utf8 }
        varint(2); string("title"); varint(4); string("body"); varint(2)
        string("section")
        varint(2)
        string("p1"); varint(2); string("body"); string("a tool"); string("title"); string("zeta")
        varint(2); string("section"); varint(1); string("utils"); string("tags"); varint(2); string("x"); string("y")
        string("p2"); varint(1); string("title"); string("alpha"); varint(0)
        var file = Array("TRAWLCT\0".utf8)
        StoredFormat.appendUInt(1, 4, to: &file)
        StoredFormat.appendUInt(UInt64(body.count), 8, to: &file)
        StoredFormat.appendUInt(StoredFormat.checksum(body[...]), 8, to: &file)
        StoredFormat.appendUInt(StoredFormat.checksum(file[...]), 8, to: &file)
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
            StoredFormat.appendUInt(UInt64(bytes.count - CatalogFormat.headerLength), 8, to: &header)
            StoredFormat.appendUInt(StoredFormat.checksum(bytes[CatalogFormat.headerLength...]), 8, to: &header)
            StoredFormat.appendUInt(StoredFormat.checksum(header[...]), 8, to: &header)
            bytes.replaceSubrange(0..<CatalogFormat.headerLength, with: header)
            do {
                _ = try CatalogFormat.decode(bytes)
            } catch {
                errors += 1
            }
        }
        #expect(errors > 250, "only \(errors) of 300 damaged files were refused")
    }

    @Test func aDamagedFileFailsItsChecksum() throws {
        var bytes = CatalogFormat.encode(Self.catalog(seed: 5, count: 100))
        let sections = try bytes.withUnsafeBytes { raw in
            try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: raw[(CatalogFormat.headerLength + 4)...]), expected: CatalogFormat.Section.count)
        }
        // A byte of the vocabulary, which opening reads.
        bytes[CatalogFormat.headerLength + 4 + sections.range(CatalogFormat.Section.index + StoredIndex.Section.vocabulary).lowerBound + 3] ^= 0x40
        #expect { try CatalogFormat.decode(bytes) } throws: { "\($0)".hasSuffix("checksum)") }
        #expect(throws: TreeIndexFormat.Error.corrupt("truncated")) { try CatalogFormat.decode(Array(bytes.dropLast())) }
    }

    /// The bytes of a version 4 catalog with its checksums made to match its content again:
    /// what a hostile file can do.
    static func withMatchingChecksums(_ damaged: [UInt8]) -> [UInt8] {
        var bytes = damaged
        let bodyStart = CatalogFormat.headerLength + 4
        let count = Int(StoredFormat.readUInt(bytes, bodyStart, 4))
        if count == CatalogFormat.Section.count, bytes.count >= bodyStart + 8 + 24 * count {
            for index in 0..<count {
                let offset = Int(clamping: StoredFormat.readUInt(bytes, bodyStart + 8 + 24 * index, 8))
                let length = Int(clamping: StoredFormat.readUInt(bytes, bodyStart + 16 + 24 * index, 8))
                guard offset <= bytes.count - bodyStart, length <= bytes.count - bodyStart - offset else { continue }
                var checksum: [UInt8] = []
                StoredFormat.appendUInt(bytes[(bodyStart + offset)..<(bodyStart + offset + length)].withUnsafeBytes { StoredFormat.wideChecksum($0) }, 8, to: &checksum)
                bytes.replaceSubrange((bodyStart + 24 + 24 * index)..<(bodyStart + 32 + 24 * index), with: checksum)
            }
        }
        var header = Array(bytes[0..<12])
        StoredFormat.appendUInt(UInt64(bytes.count - CatalogFormat.headerLength), 8, to: &header)
        let table = bytes[bodyStart..<min(bytes.count, bodyStart + 8 + 24 * CatalogFormat.Section.count)]
        StoredFormat.appendUInt(StoredFormat.checksum(table), 8, to: &header)
        StoredFormat.appendUInt(StoredFormat.checksum(header[...]), 8, to: &header)
        bytes.replaceSubrange(0..<CatalogFormat.headerLength, with: header)
        return bytes
    }

    /// A seeded fuzz of a stored catalog's bytes behind matching checksums (single bytes, runs of
    /// bytes set to extremes, sections cut short): each file is refused with an error, or opens
    /// and is searched, its items shown, updated and stored again, without a crash or a hang.
    @Test(arguments: [1, 2, 3])
    func hostileBytesBehindMatchingChecksumsAreRefusedOrSearched(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var catalog = Self.catalog(seed: seed, count: 1200)
        // Prefix lists too, so that their sections are fuzzed.
        catalog.prefixPostingsMinimum = 8
        catalog.upsert(CatalogItem(id: "after-lists", fields: ["title": "network"]))
        let good = CatalogFormat.encode(catalog)
        var refused = 0, opened = 0
        for round in 0..<150 {
            var bytes = good
            switch round % 3 {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    bytes[Int.random(in: (CatalogFormat.headerLength + 4)..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
            case 1:
                let start = Int.random(in: (CatalogFormat.headerLength + 4)..<(bytes.count - 8), using: &random)
                let value: UInt8 = [0x00, 0xFF, 0x7F, 0x80].randomElement(using: &random)!
                for index in start..<min(bytes.count, start + Int.random(in: 1...16, using: &random)) { bytes[index] = value }
            default:
                bytes.removeLast(Int.random(in: 1...200, using: &random))
            }
            bytes = Self.withMatchingChecksums(bytes)
            guard var decoded = try? CatalogFormat.decode(bytes) else {
                refused += 1
                continue
            }
            opened += 1
            var searcher = CatalogSearcher()
            for text in ["net", "n", "crème", "etude tool", "xq"] {
                for hit in searcher.search(CatalogQuery(text: text, facets: ["tags"], matchesInsideWords: true), in: decoded).hits { _ = hit.item.fields }
            }
            for (index, value) in decoded.valueStrings.prefix(3).enumerated() {
                let filter = CatalogFilter(decoded.attributeNames[decoded.valueAttribute[index]], value)
                _ = searcher.search(CatalogQuery(text: "ne", filters: [filter]), in: decoded).hits.count
            }
            _ = decoded.statistics
            _ = decoded.allItems.count
            decoded.upsert(CatalogItem(id: "fresh", fields: ["title": "net tools"]))
            decoded.delete(id: "item3")
            _ = try? CatalogFormat.decode(CatalogFormat.encode(decoded))
        }
        // The header, the tables and the small sections are checked when opening; the rest when
        // read, so both kinds of file come up.
        #expect(refused > 0 && opened > 0, "refused \(refused), opened \(opened)")
    }

    /// A section checked only when first read (the postings) that fails its checksum reads as
    /// no postings: the catalog opens and searches around it, and an update makes its index again
    /// from the items, so that what is stored again searches as the original did.
    @Test func aDamagedSectionReadInPlaceIsSearchedAroundAndMadeAgain() throws {
        let catalog = Self.catalog(seed: 11, count: 2000)
        var bytes = CatalogFormat.encode(catalog)
        let sections = try bytes.withUnsafeBytes { raw in
            try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: raw[(CatalogFormat.headerLength + 4)...]), expected: CatalogFormat.Section.count)
        }
        bytes[CatalogFormat.headerLength + 4 + sections.range(CatalogFormat.Section.index + StoredIndex.Section.postings).lowerBound + 5] ^= 0x21
        var decoded = try CatalogFormat.decode(bytes)
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        // A one-word query reads the postings: none. The items are all there.
        #expect(searcher.search(CatalogQuery(text: "net"), in: decoded).hits.isEmpty)
        #expect(decoded.allItems == catalog.allItems)
        decoded.upsert(CatalogItem(id: "fresh", fields: ["title": "net tools"]))
        var expected = catalog
        expected.upsert(CatalogItem(id: "fresh", fields: ["title": "net tools"]))
        let stored = try CatalogFormat.decode(CatalogFormat.encode(decoded))
        for text in ["net", "tool", "n", "etude tool"] {
            let query = CatalogQuery(text: text, limit: 5000)
            #expect(searcher.search(query, in: stored).hits.map(\.item) == other.search(query, in: expected).hits.map(\.item), "\(text)")
        }
    }

    /// Sections read in place, crafted behind matching checksums: posting starts that count past
    /// the lists' values (and so past their tags), and prefix tags with every bit set. Each is
    /// searched (one word, a prefix, several words) and updated without a crash; what does not
    /// decode reads as empty and is reported as damage.
    @Test func craftedSectionsReadInPlaceAreSearchedAroundAndReported() throws {
        var catalog = Self.catalog(seed: 13, count: 1500)
        catalog.prefixPostingsMinimum = 8
        catalog.upsert(CatalogItem(id: "after-lists", fields: ["title": "network"]))
        let good = CatalogFormat.encode(catalog)
        let sections = try good.withUnsafeBytes { raw in
            try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: raw[(CatalogFormat.headerLength + 4)...]), expected: CatalogFormat.Section.count)
        }
        let bodyStart = CatalogFormat.headerLength + 4
        /// `good` with section `index` of the word index rewritten by `change`, checksums matched.
        func crafted(_ index: Int, _ change: (inout ArraySlice<UInt8>) -> Void) -> [UInt8] {
            var bytes = good
            let range = sections.range(CatalogFormat.Section.index + index)
            change(&bytes[(bodyStart + range.lowerBound)..<(bodyStart + range.upperBound)])
            return Self.withMatchingChecksums(bytes)
        }
        // The second list's running count set past every value (its byte span left as it was).
        let startsPastTheValues = crafted(StoredIndex.Section.postingStarts) { starts in
            let at = starts.startIndex + 4 * 2
            for (offset, byte) in [UInt8(0x40), 0x42, 0x0F, 0x00].enumerated() { starts[at + offset] = byte }
        }
        let tagsAllSet = crafted(StoredIndex.Section.prefixTags) { tags in
            for index in tags.indices.dropFirst() { tags[index] = 0xFF }
        }
        for bytes in [startsPastTheValues, tagsAllSet] {
            var decoded = try CatalogFormat.decode(bytes)
            var searcher = CatalogSearcher()
            for text in ["net", "n", "ne", "net n", "e n", "tool net"] {
                for hit in searcher.search(CatalogQuery(text: text, facets: ["tags"]), in: decoded).hits { _ = hit.item.fields }
            }
            decoded.upsert(CatalogItem(id: "fresh", fields: ["title": "net tools"]))
            _ = try CatalogFormat.decode(CatalogFormat.encode(decoded))
        }
        let damaged = try CatalogFormat.decode(startsPastTheValues)
        #expect(damaged.damage == nil, "nothing read yet")
        for word in 0..<damaged.vocabulary.count { _ = damaged.postingsAndTags(of: word) }
        #expect(damaged.damage != nil, "a posting list that does not decode is reported")
    }

    /// A damaged block (behind a matching section checksum, but not its own) leaves its items
    /// without text; the other items and every search are whole.
    @Test func aDamagedBlockIsSearchedAround() throws {
        let catalog = Self.catalog(seed: 9, count: 3000)
        var bytes = CatalogFormat.encode(catalog)
        let sections = try bytes.withUnsafeBytes { raw in
            try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: raw[(CatalogFormat.headerLength + 4)...]), expected: CatalogFormat.Section.count)
        }
        bytes[CatalogFormat.headerLength + 4 + sections.range(CatalogFormat.Section.blocks).lowerBound + 40] ^= 0x55
        let decoded = try CatalogFormat.decode(Self.withMatchingChecksums(bytes))
        let items = decoded.allItems
        #expect(items.count == catalog.count)
        #expect(items.filter { $0.id.isEmpty }.count == CatalogBlock.itemsPerBlock, "the first block's items read as empty")
        #expect(Array(items.filter { !$0.id.isEmpty }) == catalog.allItems.filter { item in items.contains(item) })
        var searcher = CatalogSearcher(), other = CatalogSearcher()
        let query = CatalogQuery(text: "net", limit: 5000)
        #expect(searcher.search(query, in: decoded).hits.map(\.rank) == other.search(query, in: catalog).hits.map(\.rank))
    }
}
