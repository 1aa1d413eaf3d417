import Foundation
import Trawl
import BenchTestSupport

/// Group `find`: the find navigator on a 100 MB document holding about a million matches of a
/// common literal (`(`) — time to the first published match, a one-character edit (match set and
/// position up to date) beside a full rescan in the same run, "i of N", and replace all.
@MainActor
struct FindBench {
    var runs: Int
    var corpusPath: String?
    var report: Report

    func run() async throws {
        let bytes = try corpusText(path: corpusPath, size: 100_000_000)
        if corpusPath == nil { report.note("no --corpus: a 100 MB document of generated code-like text") }
        let rope = try Rope(validating: bytes)
        // "(" occurs about a million times in the 100 MB corpus file (992,737).
        let query = "("
        var random = SeededGenerator(seed: 11)

        // First result, and the whole background search.
        var first: [Double] = [], whole: [Double] = []
        var count = 0
        for _ in 0..<runs {
            let find = FindNavigator(document: TextDocument(rope))
            let start = now()
            find.query = query
            while find.matches.isEmpty && find.isSearching { await Task.yield() }
            first.append(Double(now() - start) / 1e6)
            try await finished(find)
            whole.append(Double(now() - start) / 1e6)
            count = find.matchCount
        }
        report.note("find: \(count) matches of \"\(query)\" in \(bytes.count / 1_000_000) MB")
        if report.wants("find.first_result") { report.add(Figure(name: "find.first_result", unit: "ms", samples: first)) }
        if report.wants("find.full_search") { report.add(Figure(name: "find.full_search", unit: "ms", samples: whole)) }

        let document = TextDocument(rope)
        let find = FindNavigator(document: document)
        find.query = query
        try await finished(find)

        if report.wants("find.update_after_edit") {
            // One character typed at a random place (then undone, untimed), the match set and
            // the position brought up to date; checked once against a fresh search.
            var samples: [Double] = []
            for round in 0..<(runs * 50) {
                let at = document.text.clamp(Int.random(in: 0..<document.text.utf8Count, using: &random))
                let start = now()
                document.replace(at..<at, with: round % 2 == 0 ? "s" : "(")
                blackHole(find.currentMatchIndex)
                samples.append(Double(now() - start) / 1e3)
                if round == 0 {
                    let fresh = try LiteralMatcher(query).count(in: document.text)
                    if fresh != find.matchCount { report.note("find.update_after_edit: WRONG: \(find.matchCount) matches, a fresh search finds \(fresh)") }
                }
                document.undo()
            }
            report.add(Figure(name: "find.update_after_edit", unit: "µs", samples: samples))
            let rescans = try measureSeconds(runs: runs) { blackHole(try LiteralMatcher(query).count(in: document.text)) }
            let rescan = Figure(name: "find.update_after_edit.full_rescan", unit: "µs", samples: rescans.map { $0 * 1e6 })
            report.add(rescan)
        }

        if report.wants("find.position") {
            // "i of N" for matches around the middle, per query.
            var samples: [Double] = []
            for _ in 0..<runs {
                let targets = (0..<1000).map { _ in find.matches[find.matchCount / 2 + Int.random(in: -1000...1000, using: &random)] }
                let start = now()
                for target in targets { blackHole(find.matches.index(of: target)) }
                samples.append(Double(now() - start) / 1e3 / Double(targets.count))
            }
            report.add(Figure(name: "find.position", unit: "µs", samples: samples))
        }

        if report.wants("find.indexed_query") {
            // A new query once the document's trigram index is built (typing a query, each
            // keystroke is one): the time to the final match set, beside the same navigator
            // without an index; the answers are checked equal.
            await find.waitForIndex()
            let plain = FindNavigator(document: document)
            plain.indexThreshold = .max
            for (name, rare) in [("rare", "EventLoopFuture"), ("absent", "ZebraQuokkaMatcher")] {
                var indexed: [Double] = [], unindexed: [Double] = []
                for _ in 0..<runs {
                    for (navigator, into) in [(find, 0), (plain, 1)] {
                        navigator.query = ""
                        let start = now()
                        navigator.query = rare
                        try await finished(navigator)
                        let elapsed = Double(now() - start) / 1e6
                        if into == 0 { indexed.append(elapsed) } else { unindexed.append(elapsed) }
                    }
                    if find.matches.ranges != plain.matches.ranges {
                        report.note("find.indexed_query: WRONG: \(find.matchCount) matches with the index, \(plain.matchCount) without")
                    }
                }
                report.note("find.indexed_query.\(name): \(find.matchCount) matches of \"\(rare)\", index ready: \(find.isIndexed)")
                let with = Figure(name: "find.indexed_query.\(name)", unit: "ms", samples: indexed)
                let without = Figure(name: "find.indexed_query.\(name).no_index", unit: "ms", samples: unindexed)
                report.add(with)
                report.add(without)
                report.addRatio("find.indexed_query.\(name).speedup", without, over: with)
            }
            find.query = query
            try await finished(find)
        }

        if report.wants("find.replace_all") {
            var samples: [Double] = []
            for _ in 0..<max(1, min(runs, 5)) {
                let document = TextDocument(rope)
                let find = FindNavigator(document: document)
                find.query = query
                try await finished(find)
                find.replacement = "["
                let start = now()
                let replaced = try find.replaceAll()
                samples.append(Double(now() - start) / 1e6)
                find.query = "" // stop the search of the new text
                document.undo()
                if replaced != count || document.text.utf8Count != rope.utf8Count || !document.text.chunks().elementsEqual(rope.chunks(), by: { $0.bytes == $1.bytes }) {
                    report.note("find.replace_all: WRONG: \(replaced) replacements, or undo did not restore the bytes")
                }
            }
            report.add(Figure(name: "find.replace_all", unit: "ms", samples: samples))
        }
    }

    /// Waits for a background search to end, polling every 100 µs (spinning on the main actor
    /// would take a core from the search).
    private func finished(_ find: FindNavigator) async throws {
        while find.isSearching { try await Task.sleep(nanoseconds: 100_000) }
    }
}
