import Foundation
import BenchTestSupport

/// Group `cli`: whole-process runs of the `trawl` command beside ripgrep, grep, ugrep and sd, on
/// the corpus of ../shared/tools/make-corpus.sh (`--corpus DIR` holding swift100m.txt and tree/).
struct CLIBench {
    var runs: Int
    var corpusPath: String?
    var report: Report

    /// The eight patterns of the comparison with ripgrep's default engine (issue 12), as arguments.
    static let patterns: [(name: String, arguments: [String])] = [
        ("literal_rare", ["preconditionFailure"]), ("literal", ["EventLoopFuture"]), ("literal_common", ["self"]),
        ("error_suffix", ["\\w+Error\\b"]), ("func_call", ["func\\s+\\w+\\("]),
        ("type_decl", ["(struct|class|enum|protocol)\\s+[A-Z]\\w*"]), ("ing_word", ["[a-z]+ing\\b"]),
        ("caseless", ["-i", "eventloop"]),
    ]

    /// Each peer's fastest ordinary mode for a line count: ripgrep's default engine; `rg -P` and
    /// pcre2grep in UTF mode with Unicode properties (`-u`, `(*UCP)` before the pattern: the PCRE2
    /// dialect Trawl speaks, so their counts must equal Trawl's); GNU grep's DFA (`-E`); ugrep's
    /// default engine.
    static let countPeers: [(suffix: String, command: String, arguments: [String], patternPrefix: String, samePCRE2Dialect: Bool)] = [
        ("rg", "rg", ["-c"], "", false), ("rg_pcre2", "rg", ["-c", "-P"], "", true),
        ("pcre2grep", "pcre2grep", ["-c", "-u"], "(*UCP)", true),
        ("grep", "grep", ["-c", "-E"], "", false), ("ugrep", "ugrep", ["-c"], "", false),
    ]

    func run() throws {
        let trawl = try buildTrawl()
        try CLIStressBench(runs: runs, report: report, trawl: trawl).run()
        guard let corpus = corpusPath else {
            report.note("cli.count, cli.files_with_matches and cli.replace need --corpus DIR (from ../shared/tools/make-corpus.sh DIR); skipped")
            return
        }
        let file = corpus + "/swift100m.txt", tree = corpus + "/tree"
        if report.wants("cli.startup") {
            // Start-up alone: a search of an empty file.
            let mine = try timeProcess("cli.startup.empty_file", [trawl, "find", "-c", "x", "/dev/null"])
            if let rg = tool("rg"), report.wantsPeer("cli.startup.empty_file.rg") {
                let theirs = try timeProcess("cli.startup.empty_file.rg", [rg, "-c", "x", "/dev/null"])
                report.addRatio("cli.startup.empty_file.speedup_vs_rg", theirs.figure, over: mine.figure)
            }
        }
        for (name, arguments) in CLIBench.patterns where report.wants("cli.count.\(name)") {
            let subject = "cli.count.\(name)"
            let mine = try timeProcess(subject, [trawl, "find", "-c"] + arguments + [file])
            for peer in CLIBench.countPeers where report.wantsPeer(subject + "." + peer.suffix) {
                guard let path = tool(peer.command) else {
                    report.note("\(peer.command) is not installed: no \(subject).\(peer.suffix)")
                    continue
                }
                let theirs = try timeProcess(subject + "." + peer.suffix,
                                             [path] + peer.arguments + arguments.dropLast() + [peer.patternPrefix + arguments.last!, file])
                report.addRatio(subject + ".speedup_vs_" + peer.suffix, theirs.figure, over: mine.figure)
                let detail = mine.output == theirs.output ? "\(mine.output) lines"
                    : "trawl \(mine.output) lines, \(peer.command) \(theirs.output)" + (peer.samePCRE2Dialect ? "" : " (its own regex dialect: Unicode \\w, \\s)")
                report.agree(subject, peer: peer.suffix, equal: mine.output == theirs.output, detail)
            }
        }
        if report.wants("cli.files_with_matches") {
            let subject = "cli.files_with_matches.EventLoop"
            let mine = try timeProcess(subject, [trawl, "find", "-l", "EventLoop", tree])
            if let rg = tool("rg"), report.wantsPeer(subject + ".rg") {
                let theirs = try timeProcess(subject + ".rg", [rg, "-l", "EventLoop", tree])
                report.addRatio(subject + ".speedup_vs_rg", theirs.figure, over: mine.figure)
                let a = Set(mine.output.split(separator: "\n")), b = Set(theirs.output.split(separator: "\n"))
                report.agree(subject, peer: "rg", equal: a == b, "trawl \(a.count) files, rg \(b.count), \(a.symmetricDifference(b).count) differ")
            }
        }
        if report.wants("cli.replace") { try replaceBench(trawl: trawl, tree: tree) }
    }

    private func timeProcess(_ name: String, _ command: [String]) throws -> Timed {
        try timeCommand(name, command, runs: runs, report: report)
    }

    /// `trawl replace --write` over a fresh copy of the corpus's .swift files, against sd on
    /// another fresh copy of the same files; the two results must be byte-identical.
    private func replaceBench(trawl: String, tree: String) throws {
        guard let sd = tool("sd") else {
            report.note("sd is not installed: cli.replace measures trawl alone")
            return
        }
        // Regular .swift files only (the tree has symlinks, which would be copied twice).
        let sources = Array(Set(try FileManager.default.subpathsOfDirectory(atPath: tree).filter { path in
            guard path.hasSuffix(".swift"), let type = try? FileManager.default.attributesOfItem(atPath: tree + "/" + path)[.type] as? FileAttributeType
            else { return false }
            return type == .typeRegular && (try? FileManager.default.destinationOfSymbolicLink(atPath: tree + "/" + path)) == nil
        })).sorted()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-replace-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        func freshCopy(_ name: String) throws -> String {
            let target = scratch + "/" + name
            try? FileManager.default.removeItem(atPath: target)
            for path in sources {
                let destination = target + "/" + path
                try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: tree + "/" + path, toPath: destination)
            }
            return target
        }
        let pattern = "EventLoop\\b", replacement = "RunLoop"
        var mine: [Double] = [], theirs: [Double] = []
        var lastMine = "", lastTheirs = ""
        for _ in 0..<max(1, min(runs, 3)) {
            let a = try freshCopy("trawl"), b = try freshCopy("sd")
            var start = now()
            _ = try Child.start(trawl, ["replace", "--write", "--no-ignore", "--hidden", pattern, replacement, a]).finish()
            mine.append(Double(now() - start) / 1e6)
            start = now()
            var index = 0
            while index < sources.count {
                let batch = sources[index..<min(sources.count, index + 2000)]
                _ = try Child.start(sd, [pattern, replacement] + batch, in: URL(fileURLWithPath: b)).finish()
                index += 2000
            }
            theirs.append(Double(now() - start) / 1e6)
            lastMine = a
            lastTheirs = b
        }
        let mineFigure = Figure(name: "cli.replace.write", unit: "ms", samples: mine)
        let theirFigure = Figure(name: "cli.replace.write.sd", unit: "ms", samples: theirs)
        report.add(mineFigure)
        report.add(theirFigure)
        report.addRatio("cli.replace.write.speedup_vs_sd", theirFigure, over: mineFigure)
        var differing = 0
        for path in sources where FileManager.default.contents(atPath: lastMine + "/" + path) != FileManager.default.contents(atPath: lastTheirs + "/" + path) {
            differing += 1
        }
        report.agree("cli.replace.write", peer: "sd", equal: differing == 0, "\(sources.count) files, \(differing) differ")
    }
}
