import Foundation
import Trawl

/// Group `catalog`: building a catalog and searching it a keystroke at a time, beside Tantivy,
/// SQLite FTS5 and Xapian driven by `../shared/tools/catalog-peers` on the same items and queries.
struct CatalogBench {
    let runs: Int
    /// A JSON Lines catalog: the form (`fields`, `attributes`) or the peers' flat form
    /// (`id`, `title`, `body`, `section`, `priority`, `tags`); generated items otherwise.
    let catalogPath: String?
    /// The queries (`make_queries.py`'s JSON); drawn from the items otherwise.
    let queriesPath: String?
    let report: Report

    func run() throws {
        let (items, source) = try loadItems()
        report.note("catalog: \(items.count) items from \(source)")
        var catalog = Catalog()
        let build = Figure(name: "catalog.build", unit: "ms", samples: measureMilliseconds(runs: max(1, min(runs, 3))) {
            catalog = Catalog(items: items)
        })
        report.add(build)
        report.note("catalog.build: \(Int(Double(items.count) / (build.median / 1000))) items/s (without reading the JSON)")
        let queries = try loadQueries(items: items)
        for withFacets in [true, false] {
            var searcher = CatalogSearcher()
            var latencies: [Double] = []
            var slowest: [(Double, String, Int)] = []
            var typoHits = 0, typoCount = 0, cleanHits = 0, cleanCount = 0
            for query in queries {
                var last: CatalogResults?
                for end in query.text.indices.dropFirst().map({ $0 }) + [query.text.endIndex] {
                    let typed = String(query.text[..<end])
                    if typed.allSatisfy({ $0 == " " }) { continue }
                    let start = now()
                    last = searcher.search(CatalogQuery(text: typed, limit: 50, facets: withFacets ? ["section"] : []), in: catalog)
                    latencies.append(Double(now() - start) / 1e6)
                    slowest.append((latencies.last!, typed, last!.matchCount))
                }
                let found = (last?.hits ?? []).contains { $0.id == query.target }
                if query.typo { typoCount += 1; if found { typoHits += 1 } } else { cleanCount += 1; if found { cleanHits += 1 } }
            }
            latencies.sort()
            if ProcessInfo.processInfo.environment["CATALOG_SLOWEST"] != nil {
                for (ms, typed, count) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(30) { report.note("slow: \(ms) ms '\(typed)' \(count) matches") }
            }
            let name = "catalog.keystroke" + (withFacets ? "" : ".nofacets")
            report.note("\(name): \(latencies.count) keystrokes, p50 \(percentile(latencies, 50)) ms, p99 \(percentile(latencies, 99)) ms, max \(latencies.last ?? 0) ms; typo recall@50 \(Double(typoHits) / Double(max(1, typoCount))) (\(typoCount) queries), clean \(Double(cleanHits) / Double(max(1, cleanCount)))")
        }
    }

    private func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let k = max(0, min(sorted.count - 1, Int((p / 100 * Double(sorted.count) + 0.5).rounded()) - 1))
        return sorted[k]
    }

    struct Query { var text: String; var target: String; var typo: Bool }

    private func loadQueries(items: [CatalogItem]) throws -> [Query] {
        if let queriesPath {
            let data = try Data(contentsOf: URL(fileURLWithPath: queriesPath))
            let list = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
            return list.map { Query(text: $0["q"] as! String, target: $0["target"] as! String, typo: !($0["typo"] is Bool)) }
        }
        return []
    }

    private func loadItems() throws -> ([CatalogItem], String) {
        guard let catalogPath else { return ([], "nothing") }
        let text = try String(contentsOfFile: catalogPath, encoding: .utf8)
        var items: [CatalogItem] = []
        for line in text.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            if object["fields"] != nil {
                items.append(try CatalogItem(jsonLine: String(line)))
            } else {
                var attributes: [String: [String]] = [:]
                for name in ["section", "priority"] { if let value = object[name] as? String, !value.isEmpty { attributes[name] = [value] } }
                if let tags = object["tags"] as? [String], !tags.isEmpty { attributes["tags"] = tags }
                items.append(CatalogItem(id: object["id"] as! String,
                                         fields: ["title": object["title"] as? String ?? "", "body": object["body"] as? String ?? ""],
                                         attributes: attributes))
            }
        }
        return (items, catalogPath)
    }
}
