import Foundation
import Testing
import TrawlText

/// Replays real editing traces (../shared/traces) and checks the final text exactly.
@Suite struct EditingTraceTests {
    struct Trace {
        var start: String
        var end: String
        /// (scalar position, scalars deleted, inserted text)
        var patches: [(Int, Int, String)]
    }

    static func load(_ url: URL) throws -> Trace {
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gunzip.arguments = ["gzip", "-dc", url.path]
        let output = Pipe()
        gunzip.standardOutput = output
        try gunzip.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var patches: [(Int, Int, String)] = []
        for transaction in try #require(json["txns"] as? [[String: Any]]) {
            for patch in try #require(transaction["patches"] as? [[Any]]) {
                patches.append((try #require(patch[0] as? Int), try #require(patch[1] as? Int), try #require(patch[2] as? String)))
            }
        }
        return Trace(start: try #require(json["startContent"] as? String), end: try #require(json["endContent"] as? String),
                     patches: patches)
    }

    @Test(arguments: ["automerge-paper", "seph-blog1", "rustcode", "sveltecomponent"])
    func replayGivesTheFinalText(name: String) throws {
        let url = sharedDirectory().appendingPathComponent("traces/\(name).json.gz")
        guard FileManager.default.fileExists(atPath: url.path) else {
            try Test.cancel("skipped: the trace \(url.path) is absent")
        }
        let trace = try Self.load(url)
        var rope = Rope(trace.start)
        for (position, deleted, inserted) in trace.patches {
            let start = rope.utf8Offset(ofScalar: position)
            let end = rope.utf8Offset(ofScalar: position + deleted)
            rope.replace(start..<end, with: inserted)
        }
        #expect(String(rope) == trace.end)
        #expect(rope.scalarCount == trace.end.unicodeScalars.count)
        #expect(rope.invariantViolation() == nil)
    }
}
