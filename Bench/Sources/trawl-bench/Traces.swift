import Foundation
import BenchTestSupport

/// An editing trace in the format of ../shared/traces (positions and deletions in scalars).
struct EditingTrace {
    var name: String
    var start: String
    var end: String
    var patches: [(position: Int, deleted: Int, inserted: String)]

    static func load(path: String) throws -> EditingTrace {
        let gunzip = try runTool("/usr/bin/env", ["gzip", "-dc", path])
        guard gunzip.status == 0 else { throw BenchError("\(path): gzip failed: \(gunzip.stderr)") }
        let data = Data(gunzip.output)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let transactions = json["txns"] as? [[String: Any]] else {
            throw BenchError("\(path): not an editing trace")
        }
        var patches: [(Int, Int, String)] = []
        for transaction in transactions {
            for patch in transaction["patches"] as? [[Any]] ?? [] {
                guard patch.count == 3, let position = patch[0] as? Int, let deleted = patch[1] as? Int,
                      var inserted = patch[2] as? String else { throw BenchError("\(path): bad patch \(patch)") }
                inserted.makeContiguousUTF8() // native strings, as an editor would hand over
                patches.append((position, deleted, inserted))
            }
        }
        let name = URL(fileURLWithPath: path).lastPathComponent.replacingOccurrences(of: ".json.gz", with: "")
        return EditingTrace(name: name, start: json["startContent"] as? String ?? "", end: json["endContent"] as? String ?? "",
                            patches: patches)
    }

    /// A synthetic trace when none is available: typing with occasional backspaces and jumps.
    static func synthetic(edits: Int = 260_000) -> EditingTrace {
        var random = SeededGenerator(seed: 7)
        var patches: [(Int, Int, String)] = []
        var length = 0
        var cursor = 0
        let letters = Array("abcdefghijklmnopqrstuvwxyz     \n")
        for _ in 0..<edits {
            if Int.random(in: 0..<100, using: &random) < 3 { cursor = Int.random(in: 0...length, using: &random) }
            if cursor > 0 && Int.random(in: 0..<100, using: &random) < 30 {
                cursor -= 1
                patches.append((cursor, 1, ""))
                length -= 1
            } else {
                patches.append((cursor, 0, String(letters.randomElement(using: &random)!)))
                cursor += 1
                length += 1
            }
        }
        return EditingTrace(name: "synthetic", start: "", end: "", patches: patches)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
