import Foundation
import Testing

/// Kills `trawl replace --write` with SIGKILL at random moments over a tree of thousands of
/// files, many times: every file must be wholly old or wholly new, and the leftover temporary
/// files (at most one per writing thread of each killed run) must be removed by the next run that
/// gets to them.
@Suite struct CrashSafetyTests {
    static let fileCount = 3000

    func oldContent(_ index: Int) -> String { "file \(index)\nalpha beta alpha\r\n" + String(repeating: "filler line\n", count: index % 40) + "alpha\n" }
    func newContent(_ index: Int) -> String { oldContent(index).replacingOccurrences(of: "alpha", with: "omega") }

    func makeTree() throws -> URL {
        let root = scratchURL("crash")
        for index in 0..<Self.fileCount {
            let folder = root.appendingPathComponent("d\(index % 30)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(oldContent(index).utf8).write(to: folder.appendingPathComponent("f\(index).txt"))
        }
        return root
    }

    func check(_ root: URL) throws -> (new: Int, temporaries: [String]) {
        var new = 0
        for index in 0..<Self.fileCount {
            let text = String(decoding: try Data(contentsOf: root.appendingPathComponent("d\(index % 30)/f\(index).txt")), as: UTF8.self)
            if text == newContent(index) {
                new += 1
            } else if text != oldContent(index) {
                Issue.record("f\(index).txt is neither old nor new: \(text.debugDescription)")
            }
        }
        let temporaries = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.contains(".trawl-") }
        return (new, temporaries)
    }

    @Test func killedRunsLeaveEveryFileWhollyOldOrNew() throws {
        var random = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0..<3 {
            let root = try makeTree()
            defer { try? FileManager.default.removeItem(at: root) }
            var killedRuns = 0
            for _ in 0..<8 {
                let child = try Child.start(trawlBinary.path, ["replace", "alpha", "omega", "--write", root.path])
                // A random moment of the run (which takes a few hundred milliseconds here).
                usleep(UInt32.random(in: 5_000...(round == 0 ? 60_000 : 250_000), using: &random))
                kill(child.pid, SIGKILL)
                if child.finish().status == 128 + SIGKILL {
                    kills += 1
                    killedRuns += 1
                }
                let state = try check(root)
                // At most one per writing thread of each killed run: each thread can be between
                // naming its file and the switch. A killed run may not have reached the leftovers of
                // the runs killed before it, so they add up until a run walks the whole tree.
                let writers = ProcessInfo.processInfo.activeProcessorCount
                #expect(state.temporaries.count <= killedRuns * writers,
                        "more leftovers than writers of \(killedRuns) killed runs: \(state.temporaries)")
            }
            // A complete run finishes the job and removes leftovers of the killed ones.
            let finish = try trawl(["replace", "alpha", "omega", "--write", root.path])
            #expect(finish.status == 0 || finish.status == 1, "status \(finish.status): \(finish.stderr.prefix(2000))")
            let state = try check(root)
            #expect(state.new == Self.fileCount)
            #expect(state.temporaries.isEmpty, "leftover temporary files: \(state.temporaries)")
        }
        #expect(kills > 0, "no run was killed mid-way; the test did not test anything")
    }
}
