import Testing
import TrawlTestSupport
@testable import TrawlCatalog

/// Random catalogs and queries, checked against ``CatalogOracle``.
@Suite struct CatalogDifferentialTests {
    static let stems = ["config", "conf", "confirm", "render", "rendering", "renderer", "network", "net", "netwrk", "stream",
                        "streams", "parser", "parse", "pars", "cafe", "café", "über", "uber", "alpha", "alpine", "alphabet",
                        "international", "internationally", "interaction", "x", "xy", "data", "date", "dates", "日本語"]

    static func randomText(_ random: inout SeededGenerator, words: ClosedRange<Int>) -> String {
        let count = Int.random(in: words, using: &random)
        let separators = [" ", " ", ", ", "-", " (", ") ", "/"]
        var text = ""
        for index in 0..<count {
            if index > 0 { text += separators.randomElement(using: &random)! }
            var word = stems.randomElement(using: &random)!
            if Bool.random(using: &random), word.count > 3 { word = word.uppercased() }
            text += word
        }
        return text
    }

    static func randomItem(_ random: inout SeededGenerator, id: Int) -> CatalogItem {
        var fields = ["title": randomText(&random, words: 1...3)]
        if Int.random(in: 0..<5, using: &random) > 0 { fields["body"] = randomText(&random, words: 0...12) }
        var attributes: [String: [String]] = ["section": [["web", "net", "text", "misc"].randomElement(using: &random)!]]
        if Bool.random(using: &random) { attributes["tags"] = (0..<Int.random(in: 1...3, using: &random)).map { _ in ["a", "b", "c", "d"].randomElement(using: &random)! } }
        return CatalogItem(id: "item\(id)", fields: fields, attributes: attributes)
    }

    static func randomQuery(_ random: inout SeededGenerator) -> CatalogQuery {
        var words: [String] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            var word = Array(stems.randomElement(using: &random)!)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where word.count > 1: word.remove(at: Int.random(in: 1..<word.count, using: &random))
            case 1 where word.count > 1: word[Int.random(in: 1..<word.count, using: &random)] = "q"
            case 2: word.insert("e", at: Int.random(in: 1...word.count, using: &random))
            default: break
            }
            words.append(String(word))
        }
        var text = words.joined(separator: " ")
        if Bool.random(using: &random), !text.isEmpty { text = String(text.prefix(Int.random(in: 1...text.count, using: &random))) }
        if Int.random(in: 0..<4, using: &random) == 0 { text += " " }
        var filters: [CatalogFilter] = []
        if Int.random(in: 0..<4, using: &random) == 0 { filters.append(CatalogFilter("section", ["web", "net", "text"].randomElement(using: &random)!)) }
        if Int.random(in: 0..<5, using: &random) == 0 { filters.append(CatalogFilter("tags", ["a", "b"].randomElement(using: &random)!)) }
        return CatalogQuery(text: text, filters: filters, limit: Int.random(in: 1...20, using: &random), facets: Bool.random(using: &random) ? nil : ["tags"],
                            matchesInsideWords: Int.random(in: 0..<3, using: &random) == 0)
    }

    static func expectAgree(_ results: CatalogResults, _ oracle: CatalogOracle, _ query: CatalogQuery, _ context: String) {
        let expected = oracle.search(query)
        #expect(results.matchCount == expected.count, "\(context) query \(query)")
        #expect(results.hits.map(\.id) == expected.hits.map(\.0), "\(context) query \(query)")
        for (hit, (_, rank)) in zip(results.hits, expected.hits) {
            var engine = hit.rank, truth = rank
            engine.order = 0; truth.order = 0
            #expect(engine == truth, "\(context) query \(query) item \(hit.id)")
            #expect(hit.highlights == oracle.highlights(of: hit.id, text: query.text, matchingInside: query.matchesInsideWords), "\(context) query \(query) item \(hit.id)")
        }
        var facets: [String: [String: Int]] = [:]
        for (name, values) in results.facets { for value in values { facets[name, default: [:]][value.value] = value.count } }
        #expect(facets == expected.facets, "\(context) query \(query)")
        #expect(!results.isPartial)
    }

    /// A searcher that ranks large queries from the postings whenever it can (0) or never (`Int.max`).
    static func searcher(postingsRankingMinimum: Int) -> CatalogSearcher {
        var searcher = CatalogSearcher()
        searcher.postingsRankingMinimum = postingsRankingMinimum
        return searcher
    }

    static let rankingPaths = [0, Int.max]

    /// A catalog of `items`; when queries rank from the postings (`postingsRankingMinimum`
    /// 0), every prefix also gets merged postings, so both of their sources are checked.
    static func catalog(fields: [CatalogField], items: [CatalogItem], postingsRankingMinimum: Int) -> Catalog {
        var catalog = Catalog(fields: fields)
        if postingsRankingMinimum == 0 { catalog.prefixPostingsMinimum = 1 }
        catalog.upsert(contentsOf: items)
        return catalog
    }

    @Test(arguments: rankingPaths) func searchAgreesWithTheOracle(postingsRankingMinimum: Int) {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 11))
        // Field weights apart, equal, and one that adds nothing.
        let weightings = [(3, 1), (1, 1), (0, 2)]
        for round in 0..<(6 * PropertyTestSettings.scale) {
            let (titleWeight, bodyWeight) = weightings[round % weightings.count]
            let fields = [CatalogField("title", weight: titleWeight), CatalogField("body", weight: bodyWeight)]
            let items = (0..<Int.random(in: 1...120, using: &random)).map { Self.randomItem(&random, id: $0) }
            let catalog = Self.catalog(fields: fields, items: items, postingsRankingMinimum: postingsRankingMinimum)
            let oracle = CatalogOracle(fields: fields, items: items)
            for _ in 0..<60 {
                let query = Self.randomQuery(&random)
                var searcher = Self.searcher(postingsRankingMinimum: postingsRankingMinimum)
                Self.expectAgree(searcher.search(query, in: catalog), oracle, query, "round \(round)")
            }
        }
    }

    /// Typing a query a key at a time with one searcher (which refines its last matches) gives
    /// what a fresh search gives at every keystroke.
    @Test(arguments: rankingPaths) func keystrokesRefineToTheSameResults(postingsRankingMinimum: Int) {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 12))
        for round in 0..<(4 * PropertyTestSettings.scale) {
            let fields = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)]
            let items = (0..<Int.random(in: 20...200, using: &random)).map { Self.randomItem(&random, id: $0) }
            let catalog = Self.catalog(fields: fields, items: items, postingsRankingMinimum: postingsRankingMinimum)
            let oracle = CatalogOracle(fields: fields, items: items)
            for _ in 0..<12 {
                var final = Self.randomQuery(&random)
                final.text = Self.randomText(&random, words: 1...3).lowercased()
                var searcher = Self.searcher(postingsRankingMinimum: postingsRankingMinimum)
                var filters = final.filters
                for end in final.text.indices.dropFirst() + [final.text.endIndex] {
                    var query = final
                    query.text = String(final.text[..<end])
                    if Int.random(in: 0..<6, using: &random) == 0 { filters.append(CatalogFilter("tags", "a")) } // a token added mid-way
                    query.filters = filters
                    Self.expectAgree(searcher.search(query, in: catalog), oracle, query, "round \(round) typing")
                }
            }
        }
    }

    /// A searcher moved to another catalog reuses nothing it found in the first, though the two
    /// catalogs have the same generation.
    @Test func aSearcherMovedToAnotherCatalogStartsOver() {
        let first = Catalog(items: [CatalogItem(id: "a", fields: ["title": "rendering engine"])])
        let second = Catalog(items: [CatalogItem(id: "b", fields: ["title": "renderer"]),
                                     CatalogItem(id: "c", fields: ["title": "rendering pipeline"])])
        #expect(first.generation == second.generation)
        var searcher = CatalogSearcher()
        _ = searcher.search(CatalogQuery(text: "rend"), in: first)
        _ = searcher.search(CatalogQuery(text: "rende"), in: first)
        #expect(Set(searcher.search(CatalogQuery(text: "render"), in: second).hits.map(\.id)) == ["b", "c"])
    }

    /// A word keyed from several terms' postings is kept for the next keystroke, but not past an
    /// update of the catalog: the item added after the first search is found by the second.
    @Test func aWordKeyedBeforeAnUpdateIsKeyedAgain() {
        var catalog = Catalog(items: [CatalogItem(id: "a", fields: ["title": "network"]),
                                      CatalogItem(id: "b", fields: ["title": "networks"])])
        var searcher = Self.searcher(postingsRankingMinimum: 0)
        // "network " (a whole word, one typo from 7 letters) matches two terms.
        #expect(searcher.search(CatalogQuery(text: "network "), in: catalog).matchCount == 2)
        catalog.upsert(CatalogItem(id: "c", fields: ["title": "networks hub"]))
        #expect(Set(searcher.search(CatalogQuery(text: "network "), in: catalog).hits.map(\.id)) == ["a", "b", "c"])
        #expect(Set(searcher.search(CatalogQuery(text: "network h"), in: catalog).hits.map(\.id)) == ["c"])
    }

    /// Upserts, partial updates and deletes leave a catalog that searches like one built from the
    /// final items.
    @Test(arguments: rankingPaths) func incrementalUpdatesEqualARebuild(postingsRankingMinimum: Int) {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 13))
        let fields = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)]
        var catalog = Self.catalog(fields: fields, items: [], postingsRankingMinimum: postingsRankingMinimum)
        var truth: [String: CatalogItem] = [:]
        var firstSeen: [String] = []
        var searcher = Self.searcher(postingsRankingMinimum: postingsRankingMinimum)
        for step in 0..<(3000 * PropertyTestSettings.scale) {
            let id = Int.random(in: 0..<300, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0...5:
                let item = Self.randomItem(&random, id: id)
                catalog.upsert(item)
                if truth[item.id] == nil { firstSeen.append(item.id) }
                truth[item.id] = item
            case 6...7:
                let title = Self.randomText(&random, words: 1...2)
                let changed = catalog.update(id: "item\(id)", fields: ["title": title], attributes: ["tags": nil])
                #expect(changed == (truth["item\(id)"] != nil))
                if changed { truth["item\(id)"]!.fields["title"] = title; truth["item\(id)"]!.attributes["tags"] = nil }
            default:
                #expect(catalog.delete(id: "item\(id)") == (truth.removeValue(forKey: "item\(id)") != nil))
                firstSeen.removeAll { $0 == "item\(id)" }
            }
            #expect(catalog.count == truth.count)
            guard step % 100 == 99 else { continue }
            // An item keeps its place through updates; deleted and inserted again, it comes last.
            let items = firstSeen.compactMap { truth[$0] }
            let oracle = CatalogOracle(fields: fields, items: items)
            let rebuilt = Self.catalog(fields: fields, items: items, postingsRankingMinimum: postingsRankingMinimum)
            for _ in 0..<20 {
                let query = Self.randomQuery(&random)
                Self.expectAgree(searcher.search(query, in: catalog), oracle, query, "step \(step)")
                var fresh = Self.searcher(postingsRankingMinimum: postingsRankingMinimum)
                #expect(fresh.search(query, in: rebuilt).hits.map(\.id) == searcher.search(query, in: catalog).hits.map(\.id))
            }
        }
    }
}
