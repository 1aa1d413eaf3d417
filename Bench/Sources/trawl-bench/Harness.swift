import Foundation
import BenchTestSupport

/// One measured figure: the median, minimum and maximum of several runs.
struct Figure {
    var name: String
    var unit: String
    var samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var min: Double { samples.min() ?? .nan }
    var max: Double { samples.max() ?? .nan }
}

/// Whether Trawl and a peer gave the same answer (a count, a file list, the bytes written).
struct Agreement {
    /// The figure compared (its name without the peer's suffix).
    var subject: String
    var peer: BenchTool
    var equal: Bool
    /// What was compared, or how the answers differ.
    var detail: String
}

/// Collects figures and prints them as a table or as JSON lines as they are measured.
final class Report {
    let json: Bool
    let filter: String?
    let peers: Bool
    private(set) var figures: [Figure] = []
    private(set) var agreements: [Agreement] = []
    private(set) var notes: [String] = []

    init(json: Bool, filter: String? = nil, peers: Bool = true) {
        self.json = json
        self.filter = filter
        self.peers = peers
        if !json {
            let header: [String] = [
                "name".padding(toLength: 48, withPad: " ", startingAt: 0), "unit".padding(toLength: 8, withPad: " ", startingAt: 0),
                "median".leftPadded(12), "min".leftPadded(12), "max".leftPadded(12), "runs".leftPadded(6),
            ]
            print(header.joined())
        }
    }

    /// Whether a figure is selected by `--filter` (a substring of its name).
    func wants(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

    /// Whether a peer's figure is wanted (not with `--no-peers`, used when profiling).
    func wantsPeer(_ name: String) -> Bool { peers && wants(name) }

    func add(_ figure: Figure) {
        figures.append(figure)
        if json {
            printJSON(["type": "figure", "name": figure.name, "subject": figure.subject,
                       "tool": figure.tool == .trawl ? "trawl" : figure.tool.suffix,
                       "unit": figure.unit, "median": jsonNumber(figure.median),
                       "min": jsonNumber(figure.min), "max": jsonNumber(figure.max), "runs": figure.samples.count])
        } else {
            let columns: [String] = [
                figure.name.padding(toLength: 48, withPad: " ", startingAt: 0),
                figure.unit.padding(toLength: 8, withPad: " ", startingAt: 0),
                format(figure.median).leftPadded(12), format(figure.min).leftPadded(12),
                format(figure.max).leftPadded(12), String(figure.samples.count).leftPadded(6),
            ]
            print(columns.joined())
        }
    }

    /// Adds `name` as the ratio `numerator / denominator` of two figures' medians (min and max
    /// from the per-run ratios when both have the same number of runs).
    func addRatio(_ name: String, _ numerator: Figure, over denominator: Figure) {
        let ratios: [Double]
        if numerator.samples.count == denominator.samples.count {
            ratios = zip(numerator.samples, denominator.samples).map { $0 / $1 }
        } else {
            ratios = [numerator.median / denominator.median]
        }
        add(Figure(name: name, unit: "x", samples: ratios))
    }

    /// Records (and prints) whether Trawl and `peer` answered the same for `subject`.
    func agree(_ subject: String, peer suffix: String, equal: Bool, _ detail: String) {
        let peer = BenchTool.known.first { $0.suffix == suffix } ?? BenchTool(suffix: suffix, label: suffix)
        agreements.append(Agreement(subject: subject, peer: peer, equal: equal, detail: detail))
        if json {
            printJSON(["type": "agreement", "subject": subject, "peer": suffix, "equal": equal, "detail": detail])
        } else {
            print("# \(subject): \(equal ? "same answer as" : "DIFFERENT answer from") \(peer.label): \(detail)")
        }
    }

    func note(_ text: String) {
        notes.append(text)
        if json {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        } else {
            print("# " + text)
        }
    }

    /// Prints one JSON Lines object (keys sorted).
    private func printJSON(_ object: [String: Any]) {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// A number for JSON, which has no NaN: `null` instead.
    private func jsonNumber(_ value: Double) -> Any { value.isFinite ? value : NSNull() }

    private func format(_ value: Double) -> String {
        if value.isNaN { return "-" }
        if value >= 1000 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.3f", value)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs `body` `runs` times and returns each run's duration in milliseconds.
func measureMilliseconds(runs: Int, _ body: () -> Void) -> [Double] {
    (0..<runs).map { _ in
        let start = now()
        body()
        return Double(now() - start) / 1e6
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// About `size` bytes of text shaped like source code: identifiers, keywords, punctuation, some
/// non-ASCII, LF line endings. Used when no corpus is given.
func generatedCorpus(size: Int, seed: UInt64 = 42) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    let words = ["func", "let", "var", "return", "struct", "class", "self", "import", "guard", "else",
                 "value", "count", "index", "buffer", "result", "error", "Error", "make", "String", "Int",
                 "=", "{", "}", "(", ")", "->", ":", ",", ".", "0", "1", "// note", "\"text\"", "über", "naïve"]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size + 128)
    while bytes.count < size {
        let indent = Int.random(in: 0...3, using: &random) * 4
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
        for word in 0..<Int.random(in: 1...10, using: &random) {
            if word > 0 { bytes.append(UInt8(ascii: " ")) }
            bytes.append(contentsOf: words.randomElement(using: &random)!.utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
    }
    while bytes.count > size || (bytes.count > 0 && bytes[bytes.count - 1] & 0xC0 == 0x80) { bytes.removeLast() }
    while let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
    return bytes
}

/// The first `size` bytes of the corpus at `path` (a file), trimmed to a scalar boundary, or
/// generated text when no path is given.
func corpusText(path: String?, size: Int) throws -> [UInt8] {
    guard var path else { return generatedCorpus(size: size) }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { path += "/swift100m.txt" }
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    var bytes = [UInt8](try handle.read(upToCount: size) ?? Data())
    while let last = bytes.last, last & 0x80 != 0 { bytes.removeLast() } // never end inside a scalar
    return bytes
}

/// Builds (if needed) and returns the release `trawl` of the package beside Bench.
func buildTrawl() throws -> String {
    // The package this Bench belongs to (Bench/Sources/trawl-bench/ -> the root), whatever its folder is called.
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    // One static program on Linux, as the README builds it: loading shared libraries (the Swift
    // runtime, libstdc++, PCRE2, zlib) took more than half of the start-up.
    #if os(Linux)
    let linking = ["-Xswiftc", "-static-executable"]
    #else
    let linking: [String] = []
    #endif
    // Generic types' metadata made by direct calls, not looked up by mangled name at their first
    // use (each lookup searched the program's protocol conformances): 0.2 ms of a 1.5 ms start.
    let metadata = ["-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-concrete-type-metadata-mangled-name-accessors"]
    let build = try runTool("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "trawl", "--package-path", packageRoot] + linking + metadata)
    guard build.status == 0 else { throw BenchError("building trawl failed:\n\(build.stdout)\(build.stderr)") }
    return packageRoot + "/.build/release/trawl"
}

/// A command's timing and what it printed last.
struct Timed {
    var figure: Figure
    var output: String
}

/// Runs a command `runs` times (after one warm-up run), reporting milliseconds; `before` runs
/// before each run, untimed.
func timeCommand(_ name: String, _ command: [String], runs: Int, report: Report, directory: String? = nil,
                 environment: [String: String] = [:], before: () throws -> Void = {}) throws -> Timed {
    var output = ""
    func once() throws -> Double {
        try before()
        let start = now()
        let run = try Child.start(command[0], Array(command.dropFirst()), in: directory.map { URL(fileURLWithPath: $0) },
                                  environment: environment).finish()
        let elapsed = Double(now() - start) / 1e6 // includes reading the (small) output back
        output = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return elapsed
    }
    let warmUp = try once()
    // A command far slower than the rest (a peer on a pattern it handles badly) gets fewer runs:
    // about a minute at most per figure.
    let affordable = max(1, min(runs, Int(60_000 / max(warmUp, 1))))
    if affordable < runs { report.note("\(name): \(affordable) runs, not \(runs) (\(Int(warmUp)) ms each)") }
    let figure = Figure(name: name, unit: "ms", samples: try (0..<affordable).map { _ in try once() })
    report.add(figure)
    return Timed(figure: figure, output: output)
}
