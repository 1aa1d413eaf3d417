import ArgumentParser
import Foundation

@main
struct TrawlBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trawl-bench",
        abstract: "Measures Trawl's throughput and latency, beside its peers in the same run."
    )

    @Argument(help: "The group to run: rope, match, find, index, cli.")
    var group: String

    @Flag(help: "Print one JSON object per figure instead of a table.")
    var json = false

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
        if group == "find" {
            try await FindBench.run(runs: runs, corpusPath: corpus, json: json, filter: filter, peers: peers)
            return
        }
        let report = Report(json: json, filter: filter, peers: peers)
        switch group {
        case "rope":
            try RopeBench(runs: runs, tracePaths: trace, corpusPath: corpus, report: report).run()
        case "match":
            try MatchBench(runs: runs, corpusPath: corpus, report: report).run()
        case "index":
            try IndexBench(runs: runs, corpusPath: corpus, report: report).run()
        case "catalog":
            try CatalogBench(runs: runs, catalogPath: catalog, queriesPath: queries, peersWork: peersWork,
                             peerNames: catalogPeers.split(separator: ",").map(String.init), report: report).run()
        case "cli":
            try CLIBench(runs: runs, corpusPath: corpus, report: report).run()
        default:
            throw ValidationError("unknown group '\(group)'; groups: rope, match, find, index, cli")
        }
    }
}
