import Foundation
import SystemPackage
import Trawl
import BenchTestSupport

/// The stored catalog, in group `catalog`: its size beside Tantivy's index of the same items,
/// opening it and answering a first query in a fresh process (and the resident memory after the
/// query set), `trawl catalog search` as a whole process per query beside Tantivy opening its
/// index per query, and 1,000 items added to it (recorded, then opened with them).
struct CatalogStoreBench {
    let runs: Int
    let catalog: Catalog
    let queries: [String]
    /// Tantivy's index of the same items (made by the peers' run), if any.
    let tantivyIndex: String?
    let peersWork: String?
    let report: Report

    func run() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-store-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let store = FilePath(work.appendingPathComponent("store").path)
        try CatalogStore.save(catalog, in: store)
        let size = Double(try FileManager.default.attributesOfItem(atPath: CatalogStore.path(in: store).string)[.size] as! Int) / 1e6
        report.add(Figure(name: "catalog.stored.size", unit: "MB", samples: [size]))
        let queriesFile = work.appendingPathComponent("queries.json").path
        try JSONSerialization.data(withJSONObject: queries).write(to: URL(fileURLWithPath: queriesFile))

        if report.wants("catalog.stored.open") { try measureOpen(store: store, queriesFile: queriesFile, label: "catalog.stored.open") }
        if report.wants("catalog.stored.keystroke") { try measureKeystrokes(store: store) }
        var ourCounts: [String: Int] = [:]
        if report.wants("catalog.process") { ourCounts = try measureProcesses(store: store) }
        if report.wants("catalog.process"), report.wantsPeer("catalog.process") {
            try measureTantivy(queriesFile: queriesFile, ourCounts: ourCounts, storedSize: size)
        }
        if report.wants("catalog.stored.add") { try measureAdd(store: store, queriesFile: queriesFile) }
    }

    /// Opening the stored catalog and answering the first query, in a fresh small process
    /// (``CatalogOpenChild``), `runs` times; the resident memory after every query of the set.
    private func measureOpen(store: FilePath, queriesFile: String, label: String) throws {
        var open: [Double] = [], first: [Double] = [], resident: [Double] = []
        for _ in 0..<max(1, min(runs, 5)) {
            let result = try CatalogOpenChild.run(store: store.string, queriesFile: queriesFile)
            open.append(result.openMilliseconds)
            first.append(result.openMilliseconds + result.firstQueryMilliseconds)
            resident.append(result.residentMiB)
        }
        report.add(Figure(name: "\(label).open", unit: "ms", samples: open))
        report.add(Figure(name: "\(label).first_query", unit: "ms", samples: first))
        report.add(Figure(name: "\(label).resident", unit: "MiB", samples: resident))
        report.note("\(label): open (read and checked) then the first query, in a fresh process; resident memory after all \(queries.count) queries (each a whole query, top 50 with the section facet)")
    }

    /// The queries typed a key at a time on the stored catalog as opened (its index read where it
    /// lies, a list or a record at a time), top 50 with the section facet: what an app searching
    /// a stored catalog without loading it whole gets, beside `catalog.keystroke` (built in memory).
    private func measureKeystrokes(store: FilePath) throws {
        let stored = try CatalogStore.load(from: store)
        var searcher = CatalogSearcher()
        var latencies: [Double] = [], slowest: [(Double, String)] = []
        for query in queries {
            for end in query.indices.dropFirst().map({ $0 }) + [query.endIndex] {
                let typed = String(query[..<end])
                if typed.allSatisfy({ $0 == " " }) { continue }
                let start = now()
                _ = searcher.search(CatalogQuery(text: typed, limit: 50, facets: ["section"]), in: stored)
                latencies.append(Double(now() - start) / 1e6)
                slowest.append((latencies.last!, typed))
            }
        }
        if ProcessInfo.processInfo.environment["CATALOG_SLOWEST"] != nil {
            for (ms, typed) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(10) { report.note("slow stored: \(ms) ms '\(typed)'") }
        }
        latencies.sort()
        for (suffix, value) in [("p50", percentile(latencies, 50)), ("p99", percentile(latencies, 99)), ("max", latencies.last ?? .nan)] {
            report.add(Figure(name: "catalog.stored.keystroke.\(suffix)", unit: "ms", samples: [value]))
        }
        report.note("catalog.stored.keystroke: \(latencies.count) keystrokes on the stored catalog as opened (read in place), top 50 with the section facet")
    }

    /// `trawl catalog search --limit 50 Q` per query, each run three times (its median kept);
    /// returns the match count of each query.
    private func measureProcesses(store: FilePath) throws -> [String: Int] {
        let trawl = try buildTrawl()
        var times: [Double] = [], counts: [String: Int] = [:]
        _ = try Child.start(trawl, ["catalog", "search", "--catalog", store.string, queries[0]]).finish()
        for query in queries {
            var samples: [Double] = []
            for _ in 0..<3 {
                let start = now()
                let run = try Child.start(trawl, ["catalog", "search", "--json", "--limit", "50", "--facet", "section", "--catalog", store.string, query]).finish()
                samples.append(Double(now() - start) / 1e6)
                guard run.status == 0 || run.status == 1 else { throw BenchError("trawl catalog search \(query) failed: \(run.stderr)") }
                let summary = run.stdout.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                counts[query] = summary?["matches"] as? Int
            }
            times.append(samples.sorted()[1])
        }
        report.add(Figure(name: "catalog.process.search", unit: "ms", samples: times))
        let sorted = times.sorted()
        report.add(Figure(name: "catalog.process.search.p99", unit: "ms", samples: [percentile(sorted, 99)]))
        report.note("catalog.process.search: `trawl catalog search --json --limit 50 --facet section --catalog STORE QUERY` as a whole process, \(queries.count) queries (each query's median of 3 runs); median and p99 over the queries")
        return counts
    }

    /// Tantivy opening its index of the same items and answering each query (`Bench/Peers/tantivy_open.py`).
    private func measureTantivy(queriesFile: String, ourCounts: [String: Int], storedSize: Double) throws {
        guard let peersWork, let tantivyIndex, FileManager.default.fileExists(atPath: tantivyIndex) else {
            report.note("catalog.process peer tantivy: skipped (no index: give --peers-work and let the tantivy peer build it)")
            return
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Peers/tantivy_open.py").standardizedFileURL.path
        let run = try Child.start(peersWork + "/venv/bin/python", [script, tantivyIndex, queriesFile]).finish()
        guard run.status == 0, let result = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
              let times = result["ms"] as? [Double], let counts = result["counts"] as? [String: Int] else {
            report.note("catalog.process peer tantivy: skipped (it failed: \(run.stderr.suffix(300)))")
            return
        }
        report.add(Figure(name: "catalog.process.search.tantivy", unit: "ms", samples: times))
        let sorted = times.sorted()
        report.add(Figure(name: "catalog.process.search.p99.tantivy", unit: "ms", samples: [percentile(sorted, 99)]))
        var indexBytes = 0
        if let files = FileManager.default.enumerator(atPath: tantivyIndex) {
            for case let file as String in files { indexBytes += (try? FileManager.default.attributesOfItem(atPath: tantivyIndex + "/" + file)[.size] as? Int) ?? 0 }
        }
        report.add(Figure(name: "catalog.stored.size.tantivy", unit: "MB", samples: [Double(indexBytes) / 1e6]))
        try measureTantivyStoredSize(peersWork: peersWork, storedSize: storedSize)
        // Typo tolerance differs (Tantivy's fuzzy terms take any edit, trawl's budget counts
        // letters and ranks prefixes apart): the one-word-per-term rule is compared on the
        // queries both answer alike for single words without typos.
        let compared = ourCounts.filter { counts[$0.key] != nil }
        let equal = compared.filter { counts[$0.key] == $0.value }.count
        report.agree("catalog.process.search", peer: "tantivy", equal: equal * 2 >= compared.count,
                     "queries with the same match count: \(equal) of \(compared.count) (typo rules differ)")
        report.note("catalog.process peer tantivy \(result["version"] ?? ""): Index.open + reload + searcher + the query (top 50 ids read, section facet, count) per query, in one Python process (its interpreter's start-up left out); index \(String(format: "%.1f", Double(indexBytes) / 1e6)) MB beside trawl's \(String(format: "%.1f", storedSize)) MB, which holds the items' text too (Tantivy's stores only ids here)")
    }

    /// The size of a Tantivy index of the same items that can show them as `trawl catalog search`
    /// does (every field stored too: `Bench/Peers/tantivy_stored_size.py`), then of one that can
    /// also rank by proximity (positions kept), beside the stored catalog's.
    private func measureTantivyStoredSize(peersWork: String, storedSize: Double) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-tantivy-stored-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let items = work.appendingPathComponent("items.jsonl")
        guard FileManager.default.createFile(atPath: items.path, contents: nil) else { throw BenchError("cannot create \(items.path)") }
        let handle = try FileHandle(forWritingTo: items)
        for item in catalog.allItems {
            let line: [String: Any] = ["id": item.id, "fields": item.fields, "attributes": item.attributes]
            handle.write(try JSONSerialization.data(withJSONObject: line))
            handle.write(Data("\n".utf8))
        }
        try handle.close()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Peers/tantivy_stored_size.py").standardizedFileURL.path
        // Then with positions too: what Tantivy needs to rank by proximity, as trawl ranks from
        // its forward index.
        for (flags, name, what) in [([String](), "tantivy_stored", "every field stored, so that it can show the items as trawl does"),
                                    (["--positions"], "tantivy_positions", "every field stored and the words' positions kept, so that it can also rank by proximity as trawl does")] {
            let run = try Child.start(peersWork + "/venv/bin/python", [script] + flags + [items.path, work.appendingPathComponent("index").path]).finish()
            guard run.status == 0, let result = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                  let bytes = result["bytes"] as? Int else {
                report.note("catalog.stored.size peer \(name): skipped (it failed: \(run.stderr.suffix(300)))")
                continue
            }
            report.add(Figure(name: "catalog.stored.size.\(name)", unit: "MB", samples: [Double(bytes) / 1e6]))
            report.note("catalog.stored.size.\(name): Tantivy \(result["version"] ?? "") with the same schema and \(what): \(String(format: "%.1f", Double(bytes) / 1e6)) MB beside trawl's \(String(format: "%.1f", storedSize)) MB")
        }
    }

    /// 1,000 items recorded into the stored catalog (half new, half replacing), then the catalog
    /// opened with them; the result is checked against the same changes made in memory.
    private func measureAdd(store: FilePath, queriesFile: String) throws {
        let live = catalog.allItems
        var added: [CatalogItem] = []
        for index in 0..<1000 {
            if index % 2 == 0, !live.isEmpty {
                var item = live[(index * 7919) % live.count]
                item.fields["body"] = (item.fields["body"] ?? "") + " revised"
                added.append(item)
            } else {
                added.append(CatalogItem(id: "bench-added-\(index)", fields: ["title": "added quokka \(index)", "body": "an item added after the build"],
                                         attributes: ["section": ["added"]]))
            }
        }
        let samples = try (0..<max(1, min(runs, 5))).map { _ -> Double in
            let copy = FilePath(store.string + "-add")
            try CatalogStore.save(catalog, in: copy)
            let start = now()
            try CatalogStore.upsert(added, in: copy)
            return Double(now() - start) / 1e6
        }
        report.add(Figure(name: "catalog.stored.add", unit: "ms", samples: samples))
        var expected = catalog
        expected.upsert(contentsOf: added)
        let opened = try CatalogStore.load(from: FilePath(store.string + "-add"))
        var a = CatalogSearcher(), b = CatalogSearcher()
        let same = queries.allSatisfy { text in
            a.search(CatalogQuery(text: text, limit: 50), in: opened).hits.map(\.id) == b.search(CatalogQuery(text: text, limit: 50), in: expected).hits.map(\.id)
        }
        precondition(same, "the catalog opened with 1,000 added items does not search like the same changes in memory")
        try measureOpen(store: FilePath(store.string + "-add"), queriesFile: queriesFile, label: "catalog.stored.add.reopen")
        report.note("catalog.stored.add: CatalogStore.upsert of 1,000 items (500 new, 500 replacing) into the stored catalog (recorded beside it, not written whole); then opened with them, in a fresh process; searches like the same changes made in memory")
    }
}

/// Opening a stored catalog and answering queries in a small fresh copy of `trawl-bench`, so
/// that its resident memory is the catalog's, not the bench's.
enum CatalogOpenChild {
    /// The environment variable that makes `trawl-bench` open the catalog stored in the folder it
    /// names, answer the queries of the JSON file given as its argument, print what it measured
    /// and exit.
    static let variable = "TRAWL_BENCH_OPEN_CATALOG"

    struct Result { var openMilliseconds: Double; var firstQueryMilliseconds: Double; var residentMiB: Double }

    static func run(store: String, queriesFile: String) throws -> Result {
        let run = try Child.start(PeakMemory.executablePath(), [queriesFile], environment: [variable: store]).finish()
        let values = run.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard run.status == 0, values.count == 3 else { throw BenchError("opening the stored catalog failed: \(run.stderr)") }
        return Result(openMilliseconds: values[0], firstQueryMilliseconds: values[1], residentMiB: values[2])
    }

    /// In the copy: opens, answers, prints "OPEN_MS FIRST_QUERY_MS RESIDENT_MIB" and exits.
    /// Returns at once in an ordinary run.
    static func serveIfAsked() {
        guard let store = ProcessInfo.processInfo.environment[variable], CommandLine.arguments.count == 2,
              let data = FileManager.default.contents(atPath: CommandLine.arguments[1]),
              let queries = try? JSONSerialization.jsonObject(with: data) as? [String], !queries.isEmpty else { return }
        let start = now()
        guard let catalog = try? CatalogStore.load(from: FilePath(store)) else { exit(2) }
        let opened = now()
        var searcher = CatalogSearcher()
        _ = searcher.search(CatalogQuery(text: queries[0], limit: 50, facets: ["section"]), in: catalog).hits.map(\.item)
        let answered = now()
        for query in queries { _ = searcher.search(CatalogQuery(text: query, limit: 50, facets: ["section"]), in: catalog).hits.map(\.item) }
        print("\(Double(opened - start) / 1e6) \(Double(answered - opened) / 1e6) \(residentMiB())")
        exit(0)
    }

    /// The resident memory of this process now (`/proc/self/statm`), in MiB.
    private static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
