import Foundation
import Trawl
import BenchTestSupport

/// Group `index`: the document index on a 100 MB document — build throughput, size against the
/// text, a rare-literal query beside a full literal scan in the same run (answers checked equal),
/// and a one-character edit; then the tree index (``TreeIndexBench``).
struct IndexBench {
    var runs: Int
    var corpusPath: String?
    var report: Report

    func run() throws {
        // --corpus DIR (from make-corpus.sh): DIR/swift100m.txt and DIR/tree; or a text file alone.
        var isFolder: ObjCBool = false
        let folder = corpusPath.flatMap { FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && isFolder.boolValue ? $0 : nil }
        let documentPath = folder.map { $0 + "/swift100m.txt" } ?? corpusPath
        let treePath = folder.map { $0 + "/tree" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        if !(report.filter?.hasPrefix("index.tree") ?? false) { try documentBench(documentPath) }
        if !(report.filter?.hasPrefix("index.document") ?? false) { try TreeIndexBench(runs: runs, treePath: treePath, report: report).run() }
    }

    private func documentBench(_ corpusPath: String?) throws {
        let bytes = try corpusText(path: corpusPath, size: 100_000_000)
        if corpusPath == nil { report.note("no --corpus: a 100 MB document of generated code-like text") }
        let rope = try Rope(validating: bytes)
        let megabytes = Double(bytes.count) / 1e6

        var index = DocumentIndex(rope)
        if report.wants("index.document.build") {
            let samples = measureMilliseconds(runs: max(1, min(runs, 5))) { index = DocumentIndex(rope) }
            report.add(Figure(name: "index.document.build", unit: "ms", samples: samples))
            report.add(Figure(name: "index.document.build_throughput", unit: "MB/s", samples: samples.map { megabytes / ($0 / 1000) }))
        }
        report.add(Figure(name: "index.document.size", unit: "% text", samples: [Double(index.trigrams.byteCount) / Double(bytes.count) * 100]))
        report.note("index.document: \(index.unitCount) units of ~\(index.unitLength) bytes, \(index.trigrams.postings.count) trigrams, \(index.trigrams.postingCount) postings")

        // Queries: a literal absent from the text, a rare one, a regex with a rare literal.
        let queries: [(String, any Matcher)] = [
            ("absent", try LiteralMatcher("ZebraQuokkaMatcher", options: MatchOptions())),
            ("rare", try LiteralMatcher("EventLoopFuture", options: MatchOptions())),
            ("rare_caseless", try LiteralMatcher("eventloopfuture", options: MatchOptions(matchCase: false))),
            ("regex", try RegexMatcher("func\\s+\\w+Error\\(", options: .regex)),
        ]
        for (name, matcher) in queries where report.wants("index.document.query.\(name)") {
            var indexed = 0, scanned = 0
            // Each measured after a run untimed (as hyperfine's warm-up), and a sub-millisecond
            // query ten times as often as asked: over a handful of runs, this VM's noise moved
            // its median by a third.
            let withIndex = try measureSeconds(runs: 1 + 10 * runs) {
                indexed = 0
                try index.forEachMatch(of: matcher, in: rope) { _ in indexed += 1 }
            }.dropFirst()
            let fullScan = try measureSeconds(runs: 1 + runs) {
                scanned = 0
                try matcher.forEachMatch(in: rope, ranges: [0..<rope.utf8Count]) { _ in scanned += 1 }
            }.dropFirst()
            report.agree("index.document.query.\(name)", peer: "full_scan", equal: indexed == scanned,
                         "\(indexed) matches with the index, \(scanned) without")
            guard indexed == scanned else { continue }
            let regions = index.candidateRegions(for: matcher, in: rope)
            report.note("index.document.query.\(name): \(scanned) matches; \(regions.map { "\($0.count) regions, \($0.reduce(0) { $0 + $1.count }) bytes searched" } ?? "not narrowed")")
            let trawl = Figure(name: "index.document.query.\(name)", unit: "ms", samples: withIndex.map { $0 * 1e3 })
            let scan = Figure(name: "index.document.query.\(name).full_scan", unit: "ms", samples: fullScan.map { $0 * 1e3 })
            report.add(trawl)
            report.add(scan)
            report.addRatio("index.document.query.\(name).speedup", scan, over: trawl)
        }

        if report.wants("index.document.edit") {
            // One character typed at a random place, the index brought up to date.
            var random = SeededGenerator(seed: 12)
            var text = rope
            var samples: [Double] = []
            for round in 0..<(runs * 200) {
                let old = text
                let at = text.clamp(Int.random(in: 0..<text.utf8Count, using: &random))
                let edit = text.replace(at..<at, with: round % 2 == 0 ? "x" : "(")
                let start = now()
                index.update(after: [edit], from: old, to: text)
                samples.append(Double(now() - start) / 1e3)
            }
            report.add(Figure(name: "index.document.edit", unit: "µs", samples: samples))
            // Checked: the updated index still finds exactly what a scan finds.
            let matcher = try LiteralMatcher("EventLoopFuture", options: MatchOptions())
            var indexed = 0, scanned = 0
            try index.forEachMatch(of: matcher, in: text) { _ in indexed += 1 }
            try matcher.forEachMatch(in: text, ranges: [0..<text.utf8Count]) { _ in scanned += 1 }
            if indexed != scanned { report.note("index.document.edit: WRONG after edits: \(indexed) != \(scanned)") }
        }
    }
}
