import Foundation
import BenchTestSupport

/// What a figure measures besides Trawl: a peer tool, or Trawl's own baseline. A figure belongs to
/// one when its name ends in `.<suffix>` (`cli.count.self.rg`); otherwise it is Trawl's.
struct BenchTool: Hashable {
    /// The name's last part.
    var suffix: String
    /// How tables and charts call it, with its mode (`rg -P`).
    var label: String
    /// Whether it is Trawl itself in another mode (a full scan beside the index), not a peer.
    var isBaseline = false

    static let trawl = BenchTool(suffix: "", label: "Trawl")

    /// Every peer and baseline the groups measure, in the order of table columns.
    static let known: [BenchTool] = [
        BenchTool(suffix: "rg", label: "rg"), BenchTool(suffix: "rg_pcre2", label: "rg -P"),
        BenchTool(suffix: "pcre2grep", label: "pcre2grep"), BenchTool(suffix: "grep", label: "GNU grep -E"),
        BenchTool(suffix: "ugrep", label: "ugrep"), BenchTool(suffix: "sd", label: "sd"),
        BenchTool(suffix: "cindex", label: "cindex"), BenchTool(suffix: "csearch", label: "csearch"),
        BenchTool(suffix: "bigstring", label: "BigString"), BenchTool(suffix: "pcre2_jit", label: "PCRE2 JIT"),
        BenchTool(suffix: "memchr", label: "glibc memchr"),
        BenchTool(suffix: "tantivy", label: "Tantivy"), BenchTool(suffix: "fts5", label: "SQLite FTS5"),
        BenchTool(suffix: "xapian", label: "Xapian"),
        BenchTool(suffix: "full_scan", label: "Trawl, full scan", isBaseline: true),
        BenchTool(suffix: "no_index", label: "Trawl, no index", isBaseline: true),
        BenchTool(suffix: "full_rescan", label: "Trawl, full rescan", isBaseline: true),
    ]
}

extension Figure {
    /// The tool measured (``BenchTool/trawl`` unless the name ends in a known suffix).
    var tool: BenchTool { BenchTool.known.first { name.hasSuffix("." + $0.suffix) } ?? .trawl }

    /// The name without the tool's suffix: what Trawl and its peers are compared on.
    var subject: String {
        let tool = self.tool
        return tool == .trawl ? name : String(name.dropLast(tool.suffix.count + 1))
    }

    /// Whether a larger value is better (a throughput) rather than worse (a time, a size).
    var higherIsBetter: Bool { largerIsBetter(in: unit) }
}

/// Whether a larger value in `unit` is better (a throughput, a recall) rather than worse (a time,
/// a size).
func largerIsBetter(in unit: String) -> Bool { unit.hasSuffix("/s") || unit == "recall" }

/// A figure's value as tables and charts print it: three significant digits or so.
func formatFigure(_ value: Double) -> String {
    if value.isNaN { return "–" }
    if value >= 1000 { return String(format: "%.0f", value) }
    if value >= 10 { return String(format: "%.1f", value) }
    if value >= 0.1 { return String(format: "%.2f", value) }
    return String(format: "%.3f", value)
}

/// The versions of the tools a run used, for the report's header.
func toolVersions() -> [(String, String)] {
    func first(_ command: String, _ arguments: [String]) -> String? {
        guard let run = try? runTool("/usr/bin/env", [command] + arguments), run.status == 0 else { return nil }
        let text = (run.stdout.isEmpty ? run.stderr : run.stdout).split(separator: "\n").first.map(String.init)
        return text?.trimmingCharacters(in: .whitespaces)
    }
    var versions: [(String, String)] = []
    let probes: [(String, String, [String])] = [
        ("swift", "swift", ["--version"]), ("ripgrep", "rg", ["--version"]), ("GNU grep", "grep", ["--version"]),
        ("ugrep", "ugrep", ["--version"]), ("pcre2grep", "pcre2grep", ["--version"]), ("sd", "sd", ["--version"]),
        ("PCRE2", "pkg-config", ["--modversion", "libpcre2-8"]), ("glibc", "ldd", ["--version"]),
    ]
    for (name, command, arguments) in probes {
        if let version = first(command, arguments) { versions.append((name, version)) }
    }
    if let codesearch = first("dpkg-query", ["-W", "-f", "${Version}", "codesearch"]), !codesearch.isEmpty {
        versions.append(("codesearch", codesearch))
    }
    return versions
}

/// The machine a run measured on: CPU model, cores, memory, kernel.
func machineDescription() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
    var name = utsname()
    uname(&name)
    let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GiB, \(system) \(kernel)"
}
