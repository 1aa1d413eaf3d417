import Foundation
import Trawl
import BenchTestSupport

/// Group `match`: matcher throughput over a 100 MB rope of code, beside the same matcher on the
/// bytes in one buffer (as `trawl find` holds a file) and PCRE2-JIT on that buffer (the same
/// compiled pattern, no prefilter) in the same run.
struct MatchBench {
    var runs: Int
    var corpusPath: String?
    var report: Report

    struct Case {
        var name: String
        var pattern: String
        var options: MatchOptions
        var isLiteral: Bool
    }

    static let cases: [Case] = [
        Case(name: "match.literal.rare", pattern: "ZQXJ_NEVER", options: MatchOptions(), isLiteral: true),
        Case(name: "match.literal.rare_present", pattern: "preconditionFailure", options: MatchOptions(), isLiteral: true),
        Case(name: "match.literal.common", pattern: "self", options: MatchOptions(), isLiteral: true),
        Case(name: "match.literal.case_insensitive", pattern: "eventloop", options: MatchOptions(matchCase: false), isLiteral: true),
        Case(name: "match.literal.whole_word", pattern: "let", options: MatchOptions(wholeWord: true), isLiteral: true),
        Case(name: "match.regex.error_suffix", pattern: "\\w+Error\\b", options: .regex, isLiteral: false),
        Case(name: "match.regex.func_call", pattern: "func\\s+\\w+\\(", options: .regex, isLiteral: false),
        Case(name: "match.regex.type_decl", pattern: "(struct|class|enum|protocol)\\s+[A-Z]\\w*", options: .regex, isLiteral: false),
        Case(name: "match.regex.ing_word", pattern: "[a-z]+ing\\b", options: .regex, isLiteral: false),
        Case(name: "match.regex.eventloop_caseless", pattern: "(?i)eventloop", options: .regex, isLiteral: false),
    ]

    func run() throws {
        let bytes = try corpusText(path: corpusPath, size: 100_000_000)
        if corpusPath == nil { report.note("no --corpus: matching 100 MB of generated code-like text") }
        let rope = try Rope(validating: bytes)
        // The one-buffer copy is made only when a `.contiguous` figure is wanted.
        var flatCopy: ContiguousText?
        func flat() throws -> ContiguousText {
            if let flatCopy { return flatCopy }
            let made = try ContiguousText(validating: bytes)
            flatCopy = made
            return made
        }
        let gigabytes = Double(bytes.count) / 1e9
        for benchCase in MatchBench.cases where report.wants(benchCase.name) {
            let matcher: any Matcher = benchCase.isLiteral
                ? try LiteralMatcher(benchCase.pattern, options: benchCase.options)
                : try RegexMatcher(benchCase.pattern, options: benchCase.options)
            var count = 0
            let times = try measureSeconds(runs: runs) { count = try matcher.count(in: rope) }
            let trawl = Figure(name: benchCase.name, unit: "GB/s", samples: times.map { gigabytes / $0 })
            report.add(trawl)
            if report.wants(benchCase.name + ".contiguous") {
                // The same matcher on the same bytes held in one buffer, as `trawl find` holds a
                // file: the difference is what the rope's chunks cost.
                var flatCount = 0
                let flat = try flat()
                let flatTimes = try measureSeconds(runs: runs) { flatCount = try matcher.count(in: flat) }
                report.add(Figure(name: benchCase.name + ".contiguous", unit: "GB/s", samples: flatTimes.map { gigabytes / $0 }))
                report.agree(benchCase.name, peer: "contiguous", equal: flatCount == count,
                             flatCount == count ? "\(count) matches in the rope and in one buffer" : "rope \(count) matches, one buffer \(flatCount)")
            }
            guard report.wantsPeer(benchCase.name + ".pcre2_jit") else { continue }
            let referencePattern = benchCase.isLiteral ? LiteralMatcher.escapedPattern(benchCase.pattern) : benchCase.pattern
            let reference = try PCRE2Reference(pattern: referencePattern, caseless: !benchCase.options.matchCase)
            var referenceCount = 0
            let referenceTimes = try bytes.withUnsafeBufferPointer { buffer in
                try measureSeconds(runs: runs) {
                    var n = 0
                    try reference.forEachMatch(in: buffer) { _ in n += 1 }
                    referenceCount = n
                }
            }
            let pcre2 = Figure(name: benchCase.name + ".pcre2_jit", unit: "GB/s", samples: referenceTimes.map { gigabytes / $0 })
            report.add(pcre2)
            report.addRatio(benchCase.name + ".speedup_vs_pcre2_jit", trawl, over: pcre2)
            // Whole-word filtering, and line-by-line matching of patterns without an explicit line
            // break (\s cannot run into the next line), are Trawl semantics PCRE2 lacks.
            report.agree(benchCase.name, peer: "pcre2_jit", equal: count == referenceCount,
                         count == referenceCount ? "\(count) matches" : "trawl \(count) matches, contiguous PCRE2 \(referenceCount) (whole word / line-by-line semantics)")
        }
        if report.wantsPeer("match.literal.rare.memchr") {
            // glibc memchr over the same bytes for a byte the text cannot hold (NUL): the speed of
            // a plain scan, against which the rare-literal scan of the rope is set.
            var found = false
            let times = bytes.withUnsafeBufferPointer { buffer in
                measureSeconds(runs: runs) { found = memchr(buffer.baseAddress!, 0, buffer.count) != nil }
            }
            report.add(Figure(name: "match.literal.rare.memchr", unit: "GB/s", samples: times.map { gigabytes / $0 }))
            report.agree("match.literal.rare", peer: "memchr", equal: !found, "no occurrence (memchr of a NUL byte)")
        }
    }
}

/// Runs `body` `runs` times; returns each run's duration in seconds.
func measureSeconds(runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try (0..<runs).map { _ in
        let start = now()
        try body()
        return Double(now() - start) / 1e9
    }
}
