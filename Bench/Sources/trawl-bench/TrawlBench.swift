import ArgumentParser
import Foundation

@main
struct TrawlBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trawl-bench",
        abstract: "Measures Trawl's throughput and latency, beside its peers in the same run."
    )

    static let groups = ["rope", "match", "find", "index", "catalog", "cli"]

    /// ArgumentParser's entry point, after serving a peak-memory measurement when this process is
    /// the small copy that ``PeakMemory`` starts.
    static func main() async {
        PeakMemory.serveIfAsked()
        CatalogOpenChild.serveIfAsked()
        do {
            var command = try parseAsRoot()
            if let bench = command as? TrawlBench {
                try await bench.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    @Argument(help: "The group to run: all, or one of rope, match, find, index, catalog, cli.")
    var group: String

    @Flag(help: "Print one JSON object per figure (and per answer compared) instead of a table.")
    var json = false

    @Option(help: "Also write the figures as a Markdown document (for the README's Performance section) to this file.")
    var markdown: String?

    @Option(help: "Also write SVG charts of the sections with peers into this folder (linked from --markdown).")
    var charts: String?

    @Option(help: "rope, match: a text file (e.g. swift100m.txt), generated text otherwise. cli: the folder from ../shared/tools/make-corpus.sh.")
    var corpus: String?

    @Option(help: "catalog: a JSON Lines catalog (Debian's package list from ../shared/tools/catalog-peers); generated items otherwise.")
    var catalog: String?

    @Option(help: "catalog: the typed queries (make_queries.py's JSON); drawn from the items otherwise.")
    var queries: String?

    @Option(help: "catalog: the work folder of ../shared/tools/catalog-peers (venv, data, queries), where Tantivy, FTS5 and Xapian run on the same catalog.")
    var peersWork: String?

    @Option(help: "catalog: which peers to run, comma-separated.")
    var catalogPeers = "tantivy,fts5,xapian"

    @Option(help: "An editing trace (.json.gz); default: every trace in ../shared/traces.")
    var trace: [String] = []

    @Option(help: "Runs per figure; the median is reported.")
    var runs = 10

    @Option(help: "Measure only figures whose name contains this text.")
    var filter: String?

    @Flag(inversion: .prefixedNo, help: "Measure the peers (BigString, ripgrep, ...) beside Trawl.")
    var peers = true

    func run() async throws {
        let groups = group == "all" ? TrawlBench.groups : [group]
        guard groups.allSatisfy(TrawlBench.groups.contains) else {
            throw ValidationError("unknown group '\(group)'; groups: all, \(TrawlBench.groups.joined(separator: ", "))")
        }
        try await runGroups(groups, commandLine: (["trawl-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " "))
    }

    @MainActor
    private func runGroups(_ groups: [String], commandLine: String) async throws {
        let report = Report(json: json, filter: filter, peers: peers)
        for group in groups {
            switch group {
            case "find":
                try await FindBench(runs: runs, corpusPath: corpus, report: report).run()
            case "rope":
                try RopeBench(runs: runs, tracePaths: trace, corpusPath: corpus, report: report).run()
            case "match":
                try MatchBench(runs: runs, corpusPath: corpus, report: report).run()
            case "index":
                try IndexBench(runs: runs, corpusPath: corpus, report: report).run()
            case "catalog":
                try CatalogBench(runs: runs, catalogPath: catalog, queriesPath: queries, peersWork: peersWork,
                                 peerNames: catalogPeers.split(separator: ",").map(String.init), report: report).run()
            default:
                try CLIBench(runs: runs, corpusPath: corpus, report: report).run()
            }
        }
        var chartsLink: String?
        if let charts {
            let sections = ReportDocument.sections(of: report.figures)
            let written = try ReportCharts.write(sections, to: charts)
            report.note("wrote \(written.count) charts to \(charts)")
            chartsLink = markdown.map { relativePath(from: URL(fileURLWithPath: $0).deletingLastPathComponent().path, to: charts) } ?? charts
        }
        if let markdown {
            let document = ReportDocument(report: report, command: commandLine, chartsLink: chartsLink)
            try Data(document.markdown().utf8).write(to: URL(fileURLWithPath: markdown))
            FileHandle.standardError.write(Data("wrote \(markdown)\n".utf8))
        }
    }

    /// `target` relative to the folder `base` (both made absolute), for links in the document.
    private func relativePath(from base: String, to target: String) -> String {
        let from = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        let to = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let common = zip(from, to).prefix { $0 == $1 }.count
        let path = Array(repeating: "..", count: from.count - common) + to.dropFirst(common)
        return path.isEmpty ? "." : path.joined(separator: "/")
    }
}
