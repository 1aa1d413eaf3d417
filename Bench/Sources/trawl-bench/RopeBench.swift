import _RopeModule
import Foundation
import BenchTestSupport
import Trawl

/// Group `rope`: trace replay, random edits, loading, line lookup and snapshot edits, with
/// swift-collections' BigString measured in the same run.
struct RopeBench {
    var runs: Int
    var tracePaths: [String]
    var corpusPath: String?
    var report: Report

    func run() throws {
        for trace in try traces() { try replay(trace) }
        try hundredMegabyteRope()
    }

    private func traces() throws -> [EditingTrace] {
        var paths = tracePaths
        if paths.isEmpty {
            let folder = sharedDirectory().appendingPathComponent("traces")
            paths = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json.gz") }.sorted().map { folder.appendingPathComponent($0).path }
        }
        if paths.isEmpty {
            report.note("no traces found in \(sharedDirectory().path)/traces: replaying a synthetic trace")
            return [EditingTrace.synthetic()]
        }
        return try paths.map { try EditingTrace.load(path: $0) }
    }

    private func replay(_ trace: EditingTrace) throws {
        guard report.wants("rope.trace.\(trace.name)") else { return }
        var final = Rope()
        let rope = Figure(name: "rope.trace.\(trace.name)", unit: "ms", samples: measureMilliseconds(runs: runs) {
            var text = Rope(trace.start)
            for (position, deleted, inserted) in trace.patches {
                let start = text.utf8Offset(ofScalar: position)
                let end = deleted == 0 ? start : text.utf8Offset(ofScalar: position + deleted)
                text.replace(start..<end, with: inserted)
            }
            final = text
        })
        if !trace.end.isEmpty && String(final) != trace.end { throw BenchError("\(trace.name): replay gave the wrong text") }
        report.add(rope)
        guard report.wantsPeer("rope.trace.\(trace.name).bigstring") else { return }

        let bigRuns = max(1, min(runs, 3))
        let big = Figure(name: "rope.trace.\(trace.name).bigstring", unit: "ms", samples: measureMilliseconds(runs: bigRuns) {
            var text = BigString(trace.start)
            for (position, deleted, inserted) in trace.patches {
                let start = text.unicodeScalars.index(text.startIndex, offsetBy: position)
                let end = text.unicodeScalars.index(start, offsetBy: deleted)
                text.replaceSubrange(start..<end, with: inserted)
            }
            blackHole(text)
        })
        report.add(big)
        report.addRatio("rope.trace.\(trace.name).speedup_vs_bigstring", big, over: rope)
    }

    private func hundredMegabyteRope() throws {
        guard ["rope.load", "rope.insert", "rope.delete", "rope.line", "rope.copy"].contains(where: report.wants) else { return }
        let size = 100_000_000
        let bytes = try corpusText(path: corpusPath, size: size)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-bench-\(getpid()).txt")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        var loaded = Rope()
        let loadTimes = measureMilliseconds(runs: runs) { loaded = try! Rope(contentsOfFile: file.path) }
        report.add(Figure(name: "rope.load", unit: "MB/s", samples: loadTimes.map { Double(bytes.count) / 1e6 / ($0 / 1e3) }))

        let operations = 100_000
        var random = SeededGenerator(seed: 1)
        var rope = loaded
        let insertNs = perOperation(runs: runs, operations: operations) { count in
            for _ in 0..<count {
                let scalar = Int.random(in: 0...rope.scalarCount, using: &random)
                rope.insert("x", at: rope.utf8Offset(ofScalar: scalar))
            }
        }
        report.add(Figure(name: "rope.insert.random", unit: "ns/op", samples: insertNs))

        let deleteNs = perOperation(runs: runs, operations: operations) { count in
            for _ in 0..<count {
                let start = rope.utf8Offset(ofScalar: Int.random(in: 0..<rope.scalarCount, using: &random))
                rope.delete(start..<rope.clamp(start + 1, bias: .forward))
            }
        }
        report.add(Figure(name: "rope.delete.random", unit: "ns/op", samples: deleteNs))

        var checksum = 0
        let lineNs = perOperation(runs: runs, operations: operations) { count in
            for _ in 0..<count { checksum &+= rope.utf8Offset(ofLine: Int.random(in: 0..<rope.lineCount, using: &random)) }
        }
        blackHole(checksum)
        report.add(Figure(name: "rope.line_to_offset", unit: "ns/op", samples: lineNs))

        let copyNs = perOperation(runs: runs, operations: operations / 10) { count in
            for _ in 0..<count {
                var copy = rope
                copy.insert("x", at: copy.utf8Offset(ofScalar: Int.random(in: 0...copy.scalarCount, using: &random)))
                blackHole(copy)
            }
        }
        report.add(Figure(name: "rope.copy_then_edit", unit: "ns", samples: copyNs))

        // BigString beside it: random single-character inserts into the same 100 MB of text.
        guard report.wantsPeer("rope.insert.random.bigstring") else { return }
        var big = BigString(String(decoding: bytes, as: UTF8.self))
        let bigOperations = 10_000
        let bigNs = perOperation(runs: max(1, min(runs, 3)), operations: bigOperations) { count in
            for _ in 0..<count {
                let offset = Int.random(in: 0...big.unicodeScalars.count, using: &random)
                big.insert(contentsOf: "x", at: big.unicodeScalars.index(big.startIndex, offsetBy: offset))
            }
        }
        let bigFigure = Figure(name: "rope.insert.random.bigstring", unit: "ns/op", samples: bigNs)
        report.add(bigFigure)
        report.addRatio("rope.insert.random.speedup_vs_bigstring", bigFigure,
                        over: Figure(name: "", unit: "", samples: insertNs))
    }

    /// Runs `body(operations)` `runs` times; returns nanoseconds per operation for each run.
    private func perOperation(runs: Int, operations: Int, _ body: (Int) -> Void) -> [Double] {
        measureMilliseconds(runs: runs) { body(operations) }.map { $0 * 1e6 / Double(operations) }
    }
}
