import Foundation
import BenchTestSupport

/// Figures of `trawl` on inputs that used to break it, on generated data (no corpus needed), each
/// beside its peer in the same run with the answers compared:
/// - `cli.long_line.*`: printing matches on a ~50 MB line (dense: a match every 7 bytes, plain
///   output; sparse: one every KB, JSON Lines) against ripgrep's default engine;
/// - `cli.replace_1g.*`: `replace --write` and the preview of a 1 GiB file, elapsed time and peak
///   resident memory, against sd (which holds the whole file and its result in memory).
struct CLIStressBench {
    var runs: Int
    var report: Report
    var trawl: String

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-stress-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        if report.wants("cli.long_line") { try longLines(scratch) }
        if report.wants("cli.replace_1g") { try oneGigabyte(scratch) }
    }

    private func longLines(_ scratch: String) throws {
        let dense = scratch + "/dense.txt", sparse = scratch + "/sparse.txt"
        try writeRepeated(Array("needle ".utf8), count: 7_500_000, ending: [0x0A], to: dense)
        try writeRepeated(Array((String(repeating: "x", count: 994) + "needle").utf8), count: 50_000, ending: [0x0A], to: sparse)
        let cases: [(name: String, mine: [String], theirs: [String], file: String)] = [
            ("cli.long_line.dense", ["find", "needle"], ["needle"], dense),
            ("cli.long_line.sparse_json", ["find", "--json", "needle"], ["--json", "needle"], sparse),
        ]
        for (name, mine, theirs, file) in cases where report.wants(name) {
            let out = scratch + "/out-trawl", peerOut = scratch + "/out-rg"
            let figure = try timed(name, [trawl] + mine + [file], output: out)
            guard let rg = tool("rg"), report.wantsPeer(name + ".rg") else { continue }
            let peer = try timed(name + ".rg", [rg] + theirs + [file], output: peerOut)
            report.addRatio(name + ".speedup_vs_rg", peer, over: figure)
            let same = sameOutput(out, peerOut, json: mine.contains("--json"))
            report.agree(name, peer: "rg", equal: same, "output \(same ? "identical" : "different") (rg \(theirs.joined(separator: " ")) FILE)")
        }
    }

    /// Whether two outputs are equal (for JSON: every message but the timing statistics of `end`
    /// and `summary`).
    private func sameOutput(_ a: String, _ b: String, json: Bool) -> Bool {
        guard let first = FileManager.default.contents(atPath: a), let second = FileManager.default.contents(atPath: b) else { return false }
        guard json else { return first == second }
        func messages(_ data: Data) -> [Data] {
            data.split(separator: 0x0A).filter { !$0.starts(with: Data("{\"type\":\"end\"".utf8)) && !$0.starts(with: Data("{\"data\"".utf8)) }
        }
        return messages(first) == messages(second)
    }

    private func oneGigabyte(_ scratch: String) throws {
        let chunk = generatedCorpus(size: 64 << 20)
        let original = scratch + "/big.txt"
        try writeRepeated(chunk, count: 16, ending: [], to: original)
        let pattern = "value", replacement = "VALUE"
        var mineTimes: [Double] = [], mineMemory: [Double] = [], previewMemory: [Double] = []
        var peerTimes: [Double] = [], peerMemory: [Double] = []
        let sd = tool("sd")
        var unequalRuns = 0
        for _ in 0..<max(1, min(runs, 3)) {
            let mine = scratch + "/trawl.txt", theirs = scratch + "/sd.txt"
            try? FileManager.default.removeItem(atPath: mine)
            try FileManager.default.copyItem(atPath: original, toPath: mine)
            let preview = try PeakMemory.run([trawl, "replace", pattern, replacement, mine], output: "/dev/null")
            previewMemory.append(preview.peakMiB)
            let write = try PeakMemory.run([trawl, "replace", "--write", pattern, replacement, mine], output: "/dev/null")
            mineTimes.append(write.milliseconds)
            mineMemory.append(write.peakMiB)
            if let sd, report.wantsPeer("cli.replace_1g.write.sd") {
                try? FileManager.default.removeItem(atPath: theirs)
                try FileManager.default.copyItem(atPath: original, toPath: theirs)
                let peer = try PeakMemory.run([sd, pattern, replacement, theirs], output: "/dev/null")
                peerTimes.append(peer.milliseconds)
                peerMemory.append(peer.peakMiB)
                if !FileManager.default.contentsEqual(atPath: mine, andPath: theirs) { unequalRuns += 1 }
                try? FileManager.default.removeItem(atPath: theirs)
            }
            try? FileManager.default.removeItem(atPath: mine)
        }
        if !peerTimes.isEmpty {
            report.agree("cli.replace_1g.write", peer: "sd", equal: unequalRuns == 0,
                         "bytes \(unequalRuns == 0 ? "identical in all" : "different in \(unequalRuns) of") \(peerTimes.count) runs (sd \(pattern) \(replacement) FILE)")
        }
        let fileMB = Double(16 * chunk.count) / 1_048_576
        report.note("cli.replace_1g: a \(Int(fileMB)) MiB file; target: peak resident <= file size + 64 MiB = \(Int(fileMB) + 64) MiB")
        let time = Figure(name: "cli.replace_1g.write", unit: "ms", samples: mineTimes)
        report.add(time)
        report.add(Figure(name: "cli.replace_1g.write_peak_rss", unit: "MiB", samples: mineMemory))
        report.add(Figure(name: "cli.replace_1g.preview_peak_rss", unit: "MiB", samples: previewMemory))
        if !peerTimes.isEmpty {
            let peer = Figure(name: "cli.replace_1g.write.sd", unit: "ms", samples: peerTimes)
            report.add(peer)
            report.add(Figure(name: "cli.replace_1g.write_peak_rss.sd", unit: "MiB", samples: peerMemory))
            report.addRatio("cli.replace_1g.write.speedup_vs_sd", peer, over: time)
        }
    }

    private func writeRepeated(_ piece: [UInt8], count: Int, ending: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw BenchError("cannot create \(path)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let batch = max(1, (4 << 20) / max(piece.count, 1))
        var block = Data()
        for _ in 0..<min(batch, count) { block.append(contentsOf: piece) }
        var written = 0
        while written < count {
            let now = min(batch, count - written)
            try handle.write(contentsOf: now == batch ? block : block.prefix(now * piece.count))
            written += now
        }
        try handle.write(contentsOf: Data(ending))
    }

    /// Runs a command `runs` times after a warm-up, its output to `output`; reports milliseconds.
    private func timed(_ name: String, _ command: [String], output: String) throws -> Figure {
        _ = try timedOnce(command, output: output)
        let samples = try (0..<runs).map { _ in try timedOnce(command, output: output) }
        let figure = Figure(name: name, unit: "ms", samples: samples)
        report.add(figure)
        return figure
    }

    /// Runs a command once, its standard output to a file, and returns its elapsed time.
    private func timedOnce(_ command: [String], output: String) throws -> Double {
        let start = now()
        let child = try Child.start(command[0], Array(command.dropFirst()), outputFile: output)
        _ = child.wait()
        child.discardScratchFiles(keepingOutput: true)
        return Double(now() - start) / 1e6
    }
}
