import Testing
@testable import TrawlCatalog

/// Ranking and typo cases worked out by hand from the documented rules.
@Suite struct RankingTableTests {
    static let items = [
        CatalogItem(id: "1", fields: ["title": "Network Manager", "body": "manage network connections"], attributes: ["section": ["net"]]),
        CatalogItem(id: "2", fields: ["title": "netwrk tools", "body": "tools for the network"], attributes: ["section": ["utils"]]),
        CatalogItem(id: "3", fields: ["title": "Manager", "body": "network manager for desktops"], attributes: ["section": ["gnome"], "tags": ["ui", "desktop"]]),
        CatalogItem(id: "4", fields: ["title": "network"], attributes: ["section": ["net"], "tags": ["ui"]]),
    ]
    static let catalog = catalog(postingsRankingMinimum: Int.max)

    static func catalog(postingsRankingMinimum: Int) -> Catalog {
        CatalogDifferentialTests.catalog(fields: [CatalogField("title", weight: 2), CatalogField("body", weight: 1)], items: items,
                                         postingsRankingMinimum: postingsRankingMinimum)
    }

    @Test(arguments: [
        // A field that is exactly the query first (4), then the other title match (1); 2's title
        // holds "netwrk", a typo away, which lends no title weight beside the exact match in its
        // body: 2 and 3 match in the body alone, and 3 is shorter.
        ("network", ["4", "1", "3", "2"]),
        // "manage" is one typo from "manager" (7 letters): item 1's body holds the pair in order,
        // one apart (proximity 1); item 3's body has it reversed (proximity 2).
        ("manager network", ["1", "3"]),
        // One typo allowed from 5 letters; "netwerk" is 1 from "network" and from "netwrk": equal
        // but for length (4 one word, 1 five, 2 six), then the body-only match.
        ("netwerk", ["4", "1", "2", "3"]),
        // Four letters tolerate no typo: no item has a word starting with "netw" plus an edit.
        ("nezw", []),
        // The last word is a prefix while typed (no title is exactly "net": by length again), a
        // whole word once a space follows.
        ("net", ["4", "1", "2", "3"]),
        ("net ", []),
        // Case and diacritics fold.
        ("NËTWORK", ["4", "1", "3", "2"]),
    ], CatalogDifferentialTests.rankingPaths)
    func ranks(_ case: (text: String, expected: [String]), postingsRankingMinimum: Int) {
        let (text, expected) = `case`
        var searcher = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
        let catalog = Self.catalog(postingsRankingMinimum: postingsRankingMinimum)
        #expect(searcher.search(CatalogQuery(text: text), in: catalog).hits.map(\.id) == expected)
    }

    /// Matching inside words: "office" also finds the words that hold it, after every prefix and
    /// typo match. 1's title is the word itself; 2's title begins with it ("officer"); 3 holds
    /// "ofice" and 6 "offic", a typo away (6 letters allow one; 6 is shorter); 4 and 5 hold it
    /// inside a word, in the title (weight 2) before the body. Without the option, 4 and 5 do
    /// not match.
    @Test(arguments: CatalogDifferentialTests.rankingPaths) func wordsMatchInsideOthersAfterEveryOtherMatch(postingsRankingMinimum: Int) {
        let items = [
            CatalogItem(id: "5", fields: ["title": "suite", "body": "the libreoffice suite"]),
            CatalogItem(id: "4", fields: ["title": "libreoffice writer"]),
            CatalogItem(id: "3", fields: ["title": "ofice tools"]),
            CatalogItem(id: "2", fields: ["title": "officer"]),
            CatalogItem(id: "1", fields: ["title": "office"]),
            CatalogItem(id: "6", fields: ["title": "offic"]),
        ]
        let catalog = CatalogDifferentialTests.catalog(fields: [CatalogField("title", weight: 2), CatalogField("body", weight: 1)],
                                                       items: items, postingsRankingMinimum: postingsRankingMinimum)
        var searcher = CatalogDifferentialTests.searcher(postingsRankingMinimum: postingsRankingMinimum)
        let inside = searcher.search(CatalogQuery(text: "office", matchesInsideWords: true), in: catalog)
        #expect(inside.hits.map(\.id) == ["1", "2", "6", "3", "4", "5"])
        #expect(inside.hits.map(\.rank.typos) == [0, 0, 1, 1, 3, 3])
        #expect(inside.hits[4].highlights == ["title": [0..<11]])
        #expect(searcher.search(CatalogQuery(text: "office"), in: catalog).hits.map(\.id) == ["1", "2", "6", "3"])
        // Two words: each may match inside; "writ" is a prefix of "writer".
        #expect(searcher.search(CatalogQuery(text: "office writ", matchesInsideWords: true), in: catalog).hits.map(\.id) == ["4"])
        // Under three letters, a word matches only as it always does (one-word titles in insertion
        // order, then the longer one).
        #expect(searcher.search(CatalogQuery(text: "of", matchesInsideWords: true), in: catalog).hits.map(\.id) == ["2", "1", "6", "3"])
    }

    @Test func ranksCarryTheirCriteria() {
        var searcher = CatalogSearcher()
        let hits = searcher.search(CatalogQuery(text: "manager network"), in: Self.catalog).hits
        #expect(hits.map(\.rank.proximity) == [1, 2])
        #expect(hits.map(\.rank.typos) == [0, 0])
        let typo = searcher.search(CatalogQuery(text: "netwerk "), in: Self.catalog).hits
        #expect(typo.map(\.rank.typos) == [1, 1, 1, 1])
    }

    /// Ranked from the postings, two words in one field are bounded by proximity one, not more: an
    /// item numbered after the best found so far (upserted again, so it keeps its earlier order)
    /// with its words side by side still takes its place.
    @Test(arguments: [0, Int.max]) func anUpsertedItemWithAdjacentWordsIsNotSkipped(postingsRankingMinimum: Int) {
        var catalog = Catalog()
        if postingsRankingMinimum == 0 { catalog.prefixPostingsMinimum = 1 }
        catalog.upsert(CatalogItem(id: "first", fields: ["title": "alpha gamma"]))
        catalog.upsert(CatalogItem(id: "second", fields: ["title": "alpha beta"]))
        catalog.upsert(CatalogItem(id: "first", fields: ["title": "alpha beta"]))
        var searcher = CatalogSearcher()
        searcher.postingsRankingMinimum = postingsRankingMinimum
        #expect(searcher.search(CatalogQuery(text: "alpha beta", limit: 1), in: catalog).hits.map(\.id) == ["first"])
        searcher.reset()
        #expect(searcher.search(CatalogQuery(text: "alpha beta ", limit: 1), in: catalog).hits.map(\.id) == ["first"])
    }

    /// Ranked from the postings, a prefix that is also a whole word counts as exact where the
    /// item has that word: the item that is exactly the query outranks one found before it.
    @Test(arguments: [0, Int.max]) func anExactLastWordRanksFirst(postingsRankingMinimum: Int) {
        var catalog = Catalog()
        if postingsRankingMinimum == 0 { catalog.prefixPostingsMinimum = 1 }
        catalog.upsert(contentsOf: [CatalogItem(id: "prefix", fields: ["title": "alpha config"]),
                                    CatalogItem(id: "exact", fields: ["title": "alpha conf"]),
                                    CatalogItem(id: "other", fields: ["title": "confirm"])])
        var searcher = CatalogSearcher()
        searcher.postingsRankingMinimum = postingsRankingMinimum
        #expect(searcher.search(CatalogQuery(text: "alpha conf", limit: 1), in: catalog).hits.map(\.id) == ["exact"])
    }

    /// A one-word prefix whose exact word is rare among its matches (the key pass leaps through the
    /// prefix list to each exact posting) and one whose exact word is common (it walks the list).
    @Test(arguments: [2, 60]) func anExactWordRanksFirstAmongManyPrefixMatches(exactCount: Int) {
        var catalog = Catalog()
        catalog.prefixPostingsMinimum = 1
        let longer = (0..<100).map { CatalogItem(id: "long\($0)", fields: ["title": "confirm \($0)"]) }
        let exact = (0..<exactCount).map { CatalogItem(id: "exact\($0)", fields: ["title": "conf \($0)"]) }
        // Interleaved, so that the exact items are scattered through the prefix list.
        catalog.upsert(contentsOf: zip(longer, longer.indices).flatMap { item, index in
            index < exact.count ? [item, exact[index]] : [item]
        })
        var searcher = CatalogSearcher()
        searcher.postingsRankingMinimum = 0
        let results = searcher.search(CatalogQuery(text: "conf", limit: exactCount), in: catalog)
        #expect(Set(results.hits.map(\.id)) == Set(exact.map(\.id)))
        #expect(results.matchCount == 100 + exactCount)
    }

    @Test func highlightsAreByteRangesOfMatchedWords() {
        var searcher = CatalogSearcher()
        let hit = searcher.search(CatalogQuery(text: "manag"), in: Self.catalog).hits.first { $0.id == "1" }
        #expect(hit?.highlights == ["title": [8..<15], "body": [0..<6]])
    }

    @Test func tokensFilterAndFacetsCountEveryMatch() {
        var searcher = CatalogSearcher()
        let results = searcher.search(CatalogQuery(text: "", filters: [CatalogFilter("section", "net")]), in: Self.catalog)
        #expect(results.hits.map(\.id) == ["1", "4"])
        #expect(results.facets["tags"] == [CatalogResults.FacetValue(value: "ui", count: 1)])
        let all = searcher.search(CatalogQuery(text: "network", limit: 1, facets: ["section"]), in: Self.catalog)
        #expect(all.hits.map(\.id) == ["4"])
        #expect(all.matchCount == 4)
        #expect(all.facets == ["section": [.init(value: "net", count: 2), .init(value: "gnome", count: 1), .init(value: "utils", count: 1)]])
        let unknown = searcher.search(CatalogQuery(text: "network", filters: [CatalogFilter("section", "nope")]), in: Self.catalog)
        #expect(unknown.hits.isEmpty && unknown.matchCount == 0)
    }

    @Test func aSpentBudgetReturnsPartialResults() {
        let items = (0..<5000).map { CatalogItem(id: "\($0)", fields: ["title": "item number \($0)"]) }
        let catalog = Catalog(items: items)
        var searcher = CatalogSearcher()
        let partial = searcher.search(CatalogQuery(text: "item", budget: .zero), in: catalog)
        #expect(partial.isPartial)
        #expect(partial.matchCount < 5000)
        #expect(partial.hits.count == 50)
        let whole = searcher.search(CatalogQuery(text: "item"), in: catalog)
        #expect(!whole.isPartial && whole.matchCount == 5000)
    }

    @Test func itemsParseFromJSONLines() throws {
        let item = try CatalogItem(jsonLine: #"{"id": 7, "fields": {"title": "caf\u00e9 \"au\" lait", "body": null}, "attributes": {"section": "food", "tags": ["hot", "milk"]}}"#)
        #expect(item == CatalogItem(id: "7", fields: ["title": "café \"au\" lait"], attributes: ["section": ["food"], "tags": ["hot", "milk"]]))
        #expect(throws: CatalogItem.DecodingError.self) { try CatalogItem(jsonLine: #"{"fields": {}}"#) }
        #expect(throws: CatalogItem.DecodingError.self) { try CatalogItem(jsonLine: #"{"id": "a", "fields": {"title": 3}}"#) }
        #expect(throws: CatalogItem.DecodingError.self) { try CatalogItem(jsonLine: #"{"id": "a""#) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: "[1, 2,]") }
        #expect(try JSONValue(parsing: #" {"a": [true, false, null, -1.5e3, "\ud83d\ude00"]} "#)
            == .object(["a": .array([.bool(true), .bool(false), .null, .number("-1.5e3"), .string("😀")])]))
    }
}
