import Foundation
import Trawl
import BenchTestSupport

/// Group `catalog`: building a catalog and searching it a keystroke at a time, beside Tantivy,
/// SQLite FTS5 and Xapian driven by `../shared/tools/catalog-peers` on the same items and queries.
struct CatalogBench {
    let runs: Int
    /// A JSON Lines catalog: the issue's form (`fields`, `attributes`) or the peers' flat form
    /// (`id`, `title`, `body`, `section`, `priority`, `tags`); generated items otherwise.
    let catalogPath: String?
    /// The queries (`make_queries.py`'s JSON); drawn from the items otherwise.
    let queriesPath: String?
    /// A folder prepared as ../shared/tools/catalog-peers/README.md says (its venv, data and
    /// queries); the peers run there on the catalog named like the --catalog file.
    let peersWork: String?
    let peerNames: [String]
    let report: Report

    /// The in-memory word index's parts (`Catalog.statistics`), the vocabulary's trigram index
    /// (the shared `NGramIndex`) among them.
    private func reportIndexMemory(_ statistics: CatalogStatistics) {
        func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1e6 }
        report.add(Figure(name: "catalog.memory.index", unit: "MB", samples: [megabytes(statistics.indexBytes)]))
        report.add(Figure(name: "catalog.memory.trigrams", unit: "MB", samples: [megabytes(statistics.trigramIndexBytes)]))
        report.note("catalog.memory: \(statistics.words) words, \(statistics.wordOccurrences) in the items, \(statistics.postings) postings, "
            + "\(statistics.prefixPostings) in prefix lists, \(statistics.trigramPostings) trigram postings; MB: forward index "
            + String(format: "%.1f, postings %.1f, prefix lists %.1f, vocabulary %.1f, its trigram index %.1f",
                     megabytes(statistics.forwardIndexBytes), megabytes(statistics.postingBytes), megabytes(statistics.prefixPostingBytes),
                     megabytes(statistics.vocabularyBytes), megabytes(statistics.trigramIndexBytes)))
    }

    func run() throws {
        let (items, source) = try loadItems()
        report.note("catalog: \(items.count) items from \(source)")
        var catalog = Catalog()
        let build = Figure(name: "catalog.build", unit: "ms", samples: measureMilliseconds(runs: max(1, min(runs, 3))) {
            catalog = Catalog(items: items)
        })
        report.add(build)
        report.note("catalog.build: \(Int(Double(items.count) / (build.median / 1000))) items/s (without reading the JSON)")
        reportIndexMemory(catalog.statistics)
        // With --filter, only the selected parts run (the catalog is always built).
        if report.wants("catalog.store") || report.wants("catalog.size") {
            var stored: [UInt8] = []
            let storeRuns = max(1, min(runs, 3))
            report.add(Figure(name: "catalog.store.save", unit: "ms", samples: measureMilliseconds(runs: storeRuns) { stored = CatalogFormat.encode(catalog) }))
            report.add(Figure(name: "catalog.store.load", unit: "ms", samples: measureMilliseconds(runs: storeRuns) {
                precondition((try? CatalogFormat.decode(stored))?.count == catalog.count, "the stored catalog does not load")
            }))
            report.add(Figure(name: "catalog.size", unit: "MB", samples: [Double(stored.count) / 1e6]))
            report.note("catalog.size: \(String(format: "%.1f", Double(stored.count) / 1e6)) MB stored (CatalogFormat v\(CatalogFormat.version)): the word index laid out to be read where it lies, and the items' text; opening reads the small parts and leaves the rest in the file until a search reads it")
        }
        if report.wants("catalog.build.process") { try timeWholeProcessBuild(items) }
        let queries = try loadQueries(items: items)
        report.note("catalog: \(queries.count) queries, \(queries.filter(\.typo).count) with a typo, typed a key at a time; top 50 per keystroke")
        if report.wants("catalog.recall") { reportRecallCeiling(queries: queries, items: items) }
        var finalCounts: [String: Int] = [:]
        var ourFinalCounts: [String: Int] = [:]
        // Then with matches inside words (CatalogQuery.matchesInsideWords), which the shared n-gram
        // index over the vocabulary serves.
        for (withFacets, inside) in [(true, false), (false, false), (true, true)] {
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
                    last = searcher.search(CatalogQuery(text: typed, limit: 50, facets: withFacets ? ["section"] : [], matchesInsideWords: inside), in: catalog)
                    latencies.append(Double(now() - start) / 1e6)
                    slowest.append((latencies.last!, typed, last!.matchCount))
                }
                let found = (last?.hits ?? []).contains { $0.id == query.target }
                // CATALOG_RANKS notes each query's intended item's rank (in the top 5,000), to set
                // beside a peer's per-query ranks.
                if withFacets, !inside, ProcessInfo.processInfo.environment["CATALOG_RANKS"] != nil {
                    let deep = searcher.search(CatalogQuery(text: query.text, limit: 5000), in: catalog)
                    let rank = deep.hits.firstIndex { $0.id == query.target }.map { $0 + 1 }
                    report.note("rank: \(query.typo) \(rank.map(String.init) ?? "none") of \(deep.matchCount) '\(query.text)' \(query.target)")
                }
                finalCounts[query.text] = last?.matchCount
                if query.typo { typoCount += 1; if found { typoHits += 1 } } else { cleanCount += 1; if found { cleanHits += 1 } }
            }
            latencies.sort()
            if ProcessInfo.processInfo.environment["CATALOG_SLOWEST"] != nil {
                for (ms, typed, count) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(30) { report.note("slow: \(ms) ms '\(typed)' \(count) matches") }
            }
            if withFacets, !inside { ourFinalCounts = finalCounts }
            let name = "catalog.keystroke" + (inside ? ".inside" : "") + (withFacets ? "" : ".nofacets")
            report.add(Figure(name: name + ".p50", unit: "ms", samples: [percentile(latencies, 50)]))
            report.add(Figure(name: name + ".p99", unit: "ms", samples: [percentile(latencies, 99)]))
            report.add(Figure(name: name + ".max", unit: "ms", samples: [latencies.last ?? .nan]))
            report.note("\(name): \(latencies.count) keystrokes, p50 \(percentile(latencies, 50)) ms, p99 \(percentile(latencies, 99)) ms, max \(latencies.last ?? 0) ms; typo recall@50 \(Double(typoHits) / Double(max(1, typoCount))) (\(typoCount) queries), clean \(Double(cleanHits) / Double(max(1, cleanCount)))")
        }
        if report.peers { try runPeers(ourCounts: ourFinalCounts, queries: queries) }
        if report.wants("catalog.stored") || report.wants("catalog.process") {
            let name = catalogPath.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent.replacingOccurrences(of: "-trawl", with: "") }
            try CatalogStoreBench(runs: runs, catalog: catalog, queries: queries.map(\.text),
                                  tantivyIndex: peersWork.flatMap { work in name.map { work + "/idx/tantivy-\($0)" } }, peersWork: peersWork,
                                  report: report).run()
        }
    }

    /// The recall no ranker can expect to beat on these queries (``RecallCeiling``), beside the measured ones.
    private func reportRecallCeiling(queries: [Query], items: [CatalogItem]) {
        for typo in [true, false] {
            let chosen = queries.filter { $0.typo == typo }.map(\.words)
            let ceiling = RecallCeiling.recall(of: chosen, in: items, limit: 50)
            let name = "catalog.recall.ceiling" + (typo ? ".typo" : ".clean")
            report.add(Figure(name: name, unit: "recall", samples: [ceiling.expected]))
            report.note("\(name): \(String(format: "%.3f ± %.3f", ceiling.expected, ceiling.deviation)) — the recall@50 the Bayes-optimal ranking expects given the words before any typo (no ranker can expect more), ± one standard deviation of a measured recall over these \(chosen.count) queries")
        }
    }

    /// Runs the peers of ../shared/tools/catalog-peers on the same catalog and queries, one at a
    /// time, and reports their figures beside ours; the clean queries' final match counts are
    /// compared with ours (same rule: every word, the last as a prefix).
    private func runPeers(ourCounts: [String: Int], queries: [Query]) throws {
        guard let peersWork, let catalogPath else {
            report.note("catalog peers: skipped (give --peers-work, a folder prepared as ../shared/tools/catalog-peers/README.md says, and --catalog)")
            return
        }
        let name = URL(fileURLWithPath: catalogPath).deletingPathExtension().lastPathComponent
        let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../shared/tools/catalog-peers").standardizedFileURL.path
        let venvPython = peersWork + "/venv/bin/python"
        for peer in peerNames {
            let python = peer == "xapian" ? "/usr/bin/python3" : venvPython
            guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: tools + "/bench_\(peer).py") else {
                report.note("catalog peer \(peer): skipped (no \(python) or \(tools)/bench_\(peer).py)")
                continue
            }
            let run = try Child.start(python, [tools + "/bench_\(peer).py", name], environment: ["PEERS_WORK": peersWork]).finish()
            let resultPath = peersWork + "/results/\(peer)-\(name).json"
            guard run.status == 0, let data = FileManager.default.contents(atPath: resultPath),
                  let result = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                report.note("catalog peer \(peer): skipped (it failed: \(run.stderr.suffix(300)))")
                continue
            }
            func number(_ key: String) -> Double { (result[key] as? NSNumber)?.doubleValue ?? .nan }
            var equal = 0, compared = 0
            for entry in result["per_query"] as? [[String: Any]] ?? [] where entry["typo"] as? Bool == false {
                guard let text = entry["q"] as? String, let total = entry["total"] as? Int, let ours = ourCounts[text] else { continue }
                compared += 1
                if total == ours { equal += 1 }
            }
            report.add(Figure(name: "catalog.keystroke.p50.\(peer)", unit: "ms", samples: [number("p50_ms")]))
            report.add(Figure(name: "catalog.keystroke.p99.\(peer)", unit: "ms", samples: [number("p99_ms")]))
            report.add(Figure(name: "catalog.keystroke.max.\(peer)", unit: "ms", samples: [number("max_ms")]))
            report.add(Figure(name: "catalog.size.\(peer)", unit: "MB", samples: [number("index_mb")]))
            report.agree("catalog.keystroke.p50", peer: peer, equal: equal == compared,
                         "clean queries with the same match count: \(equal) of \(compared)")
            report.note("catalog peer \(peer) \(result["version"] ?? ""): build \(Int(number("build_items_per_s"))) items/s into \(String(format: "%.1f", number("index_mb"))) MB; "
                + "p50 \(String(format: "%.2f", number("p50_ms"))) ms, p99 \(String(format: "%.1f", number("p99_ms"))) ms, max \(String(format: "%.1f", number("max_ms"))) ms; "
                + "typo recall@50 \(String(format: "%.2f", number("typo_recall50"))), clean \(String(format: "%.2f", number("clean_recall50"))); "
                + "clean queries with the same match count as ours: \(equal) of \(compared)")
        }
    }

    /// `trawl catalog build` as a user runs it, JSON Lines (the issue's form) in, the stored
    /// catalog out: reading, parsing, indexing and saving.
    private func timeWholeProcessBuild(_ items: [CatalogItem]) throws {
        let trawl = try buildTrawl()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-catalog-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("items.jsonl")
        var lines = ""
        for item in items {
            let fields = item.fields.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)): \(jsonString($0.value))" }
            let attributes = item.attributes.sorted { $0.key < $1.key }.map { "\(jsonString($0.key)): [\($0.value.map(jsonString).joined(separator: ", "))]" }
            lines += "{\"id\": \(jsonString(item.id)), \"fields\": {\(fields.joined(separator: ", "))}, \"attributes\": {\(attributes.joined(separator: ", "))}}\n"
        }
        try Data(lines.utf8).write(to: file)
        let timed = try timeCommand("catalog.build.process", [trawl, "catalog", "build", "--stats", "--catalog", work.appendingPathComponent("store").path, file.path],
                                    runs: max(1, min(runs, 3)), report: report)
        report.note("catalog.build.process: \(Int(Double(items.count) / (timed.figure.median / 1000))) items/s, whole process from JSON Lines (\(timed.output))")
    }

    private func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A query as typed, its intended item, whether one word carries a typo, and the drawn words
    /// before the typo.
    struct Query { var text: String; var target: String; var typo: Bool; var words: [String] }

    private func loadQueries(items: [CatalogItem]) throws -> [Query] {
        if let queriesPath {
            let data = try Data(contentsOf: URL(fileURLWithPath: queriesPath))
            let list = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
            return list.map { Query(text: $0["q"] as! String, target: $0["target"] as! String, typo: !($0["typo"] is Bool), words: $0["words"] as! [String]) }
        }
        // As make_queries.py does: 1-3 of one item's query words, half with one edit (substitution,
        // deletion or insertion, never the first letter) in a word of 5+ letters.
        var random = SeededGenerator(seed: 4242)
        var queries: [Query] = []
        while queries.count < 200, !items.isEmpty {
            let item = items[Int.random(in: 0..<items.count, using: &random)]
            var words = RecallCeiling.queryWords(of: item)
            guard !words.isEmpty else { continue }
            words.shuffle(using: &random)
            var chosen = Array(words.prefix(min(Int.random(in: 1...3, using: &random), words.count)))
            let drawn = chosen
            var typo = false
            if let index = chosen.indices.filter({ chosen[$0].count >= 5 }).randomElement(using: &random), Bool.random(using: &random) {
                var letters = Array(chosen[index])
                let position = Int.random(in: 1..<letters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: letters[position] = letters[position] == "q" ? "x" : "q"
                case 1: letters.remove(at: position)
                default: letters.insert("e", at: position)
                }
                chosen[index] = String(letters)
                typo = true
            }
            queries.append(Query(text: chosen.joined(separator: " "), target: item.id, typo: typo, words: drawn))
        }
        return queries
    }

    /// Items of the Debian catalog's shape, deterministic: titles of 1-4 and bodies of 0-20 words
    /// drawn from a Zipf-like vocabulary of pronounceable words, a section, a priority and tags.
    static func generatedItems(count: Int) -> [CatalogItem] {
        var random = SeededGenerator(seed: 20240601)
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ex", "in", "or", "an", "st", "pr", "gl", "cr", "ing", "er", "ion", "ly"]
        var vocabulary: [String] = []
        for _ in 0..<60_000 {
            vocabulary.append((0..<Int.random(in: 1...5, using: &random)).map { _ in syllables.randomElement(using: &random)! }.joined())
        }
        func word() -> String {
            // Zipf-like: small indices far more often.
            let u = Double.random(in: 0..<1, using: &random)
            return vocabulary[min(vocabulary.count - 1, Int(pow(Double(vocabulary.count), u)) - 1)]
        }
        let sections = (0..<58).map { "section\($0)" }, tags = (0..<600).map { "tag::\($0)" }
        return (0..<count).map { number in
            let title = (0..<Int.random(in: 1...4, using: &random)).map { _ in word() }.joined(separator: "-")
            let body = (0..<Int.random(in: 0...20, using: &random)).map { _ in word() }.joined(separator: " ")
            let sectionIndex = min(sections.count - 1, Int(pow(Double(sections.count), Double.random(in: 0..<1, using: &random))) - 1)
            var attributes = ["section": [sections[sectionIndex]], "priority": [Bool.random(using: &random) ? "optional" : "standard"]]
            if Bool.random(using: &random) { attributes["tags"] = (0..<Int.random(in: 1...6, using: &random)).map { _ in tags.randomElement(using: &random)! } }
            return CatalogItem(id: "g\(number)", fields: ["title": title, "body": body], attributes: attributes)
        }
    }

    private func loadItems() throws -> ([CatalogItem], String) {
        guard let catalogPath else { return (Self.generatedItems(count: 1_000_000), "generated items (no --catalog)") }
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
