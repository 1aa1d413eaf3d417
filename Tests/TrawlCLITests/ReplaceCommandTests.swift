import Foundation
import Testing

/// `trawl replace` end to end, on copies of Fixtures.
@Suite struct ReplaceCommandTests {
    let tree: URL
    init() throws { tree = try copyOfFixture("tree") }

    @Test func previewWritesNothingAndShowsADiff() throws {
        let before = try snapshotTree(tree)
        let run = try trawl(["replace", "EventLoop\\b", "RunLoop", "."], in: tree)
        #expect(run.status == 0)
        #expect(run.stdout.contains("--- a/Sources/App/main.swift\n+++ b/Sources/App/main.swift\n@@ -1,7 +1,7 @@\n import Net\n"))
        // Adjacent changed lines form one block, removals first (as diff writes them).
        #expect(run.stdout.contains("-let loop = EventLoop(threads: 2)\n+// The app starts an RunLoop and serves requests until it is told to stop.\n+let loop = RunLoop(threads: 2)\n"))
        #expect(run.stderr.contains("5 files to change, 10 replacements"))
        #expect(try snapshotTree(tree) == before)
        #expect(try trawl(["replace", "NoSuchThing", "x", "."], in: tree).status == 1)
    }

    @Test func writeReplacesAndPreservesEverythingElse() throws {
        let server = tree.appendingPathComponent("Sources/Net/Server.swift")
        let notes = tree.appendingPathComponent("docs/NOTES.md")
        let binary = tree.appendingPathComponent("image.bin")
        let oldServer = try bytes(server), oldNotes = try bytes(notes), oldBinary = try bytes(binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: server.path)
        let run = try trawl(["replace", "EventLoop\\b", "RunLoop", "--write", "."], in: tree)
        #expect(run.status == 0)
        #expect(run.stderr.contains("5 files changed, 10 replacements"))
        let expectedServer = String(decoding: oldServer, as: UTF8.self).replacingOccurrences(of: "EventLoop", with: "RunLoop")
        #expect(try bytes(server) == Array(expectedServer.utf8), "CRLF line endings are kept")
        #expect(try bytes(notes).starts(with: [0xEF, 0xBB, 0xBF]), "the BOM is kept")
        #expect(try bytes(notes) == Array(String(decoding: oldNotes, as: UTF8.self).replacingOccurrences(of: "EventLoop", with: "RunLoop").utf8))
        #expect(try bytes(binary) == oldBinary, "binary files are untouched")
        let mode = try FileManager.default.attributesOfItem(atPath: server.path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the mode is kept")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.contains(".trawl-") }
        #expect(leftovers.isEmpty)
    }

    @Test func templatesAndFlags() throws {
        let file = tree.appendingPathComponent("Sources/App/main.swift")
        #expect(try trawl(["replace", "(\\w+)Loop", "${1}_loop", "--write", file.path]).status == 0)
        #expect(String(decoding: try bytes(file), as: UTF8.self).contains("let loop = Event_loop(threads: 2)"))
        #expect(try trawl(["replace", "-F", "(threads: 2)", "($1)", "--write", file.path]).status == 0)
        #expect(String(decoding: try bytes(file), as: UTF8.self).contains("Event_loop($1)"), "-F inserts the replacement as typed")
        #expect(try trawl(["replace", "-w", "-i", "LOOP", "cycle", "--preserve-case", "--write", file.path]).status == 0)
        let text = String(decoding: try bytes(file), as: UTF8.self)
        #expect(text.contains("let cycle = Event_loop") && text.contains("cycle.run()"))
        let bad = try trawl(["replace", "(a)", "$2", file.path])
        #expect(bad.status == 2 && bad.stderr.contains("no group 2"))
    }

    @Test func invalidInputIsReportedAndUntouched() throws {
        let bad = try copyOfFixture("bad-input")
        let latin1 = bad.appendingPathComponent("latin1.txt")
        let before = try bytes(latin1)
        let run = try trawl(["replace", "EventLoop", "RunLoop", "--write", "."], in: bad)
        // A skip is reported but is not a failure of the run, unless --strict asks for that.
        #expect(run.status == 1)
        #expect(run.stderr.contains("latin1.txt: not valid UTF-8 (first bad byte at offset 25); skipped, left untouched"))
        #expect(try bytes(latin1) == before)
        let strict = try trawl(["replace", "EventLoop", "RunLoop", "--write", "--strict", "."], in: bad)
        #expect(strict.status == 2)
        #expect(strict.stderr.contains("latin1.txt: not valid UTF-8 (first bad byte at offset 25); skipped, left untouched"))
        #expect(try bytes(latin1) == before)
    }

    @Test func readOnlyFilesAreLeftAlone() throws {
        let file = tree.appendingPathComponent("vendor/keep.swift")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file.path)
        let before = try bytes(file)
        let run = try trawl(["replace", "EventLoop", "RunLoop", "--write", "."], in: tree)
        #expect(run.status == 2)
        #expect(run.stderr.contains("keep.swift: read-only file; left untouched"))
        #expect(try bytes(file) == before)
        #expect(String(decoding: try bytes(tree.appendingPathComponent("Sources/App/main.swift")), as: UTF8.self).contains("RunLoop"),
                "the run goes on")
    }

    @Test func symlinksAreResolvedAndTheirTargetReplaced() throws {
        let link = tree.appendingPathComponent("link.swift")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "Sources/App/main.swift")
        #expect(try trawl(["replace", "EventLoop", "RunLoop", "--write", "link.swift"], in: tree).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "Sources/App/main.swift", "the link stays a link")
        #expect(String(decoding: try bytes(tree.appendingPathComponent("Sources/App/main.swift")), as: UTF8.self).contains("RunLoop(threads"))
    }

    @Test func standardInputIsFiltered() throws {
        let run = try trawl(["replace", "(\\w+)@(\\w+)", "$2 at $1"], input: "me@host\r\nyou@there\n")
        #expect(run.status == 0)
        #expect(run.stdout == "host at me\r\nthere at you\n")
        #expect(try trawl(["replace", "x", "y"], input: "abc").stdout == "abc")
    }

    @Test func interactiveAsksPerChange() throws {
        let file = tree.appendingPathComponent("Sources/Net/EventLoop.swift")
        // yes to the first, no to the second, then all remaining in this file.
        let run = try trawl(["replace", "--interactive", "EventLoop", "RunLoop", file.path], input: "y\nn\na\n")
        #expect(run.status == 0)
        let text = String(decoding: try bytes(file), as: UTF8.self)
        #expect(text.contains("/// An RunLoop runs tasks"))
        #expect(text.contains("public final class EventLoop {"))
        #expect(text.contains("\"an RunLoop needs"))
        let quit = try trawl(["replace", "--interactive", "Server", "Host", tree.appendingPathComponent("Sources/Net/Server.swift").path],
                             input: "q\n")
        #expect(quit.status == 1)
    }

    @Test func jsonReportsEveryChange() throws {
        let run = try trawl(["replace", "--json", "EventLoop", "RunLoop", "Sources/App/main.swift"], in: tree)
        let objects = try run.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.count == 3)
        let change = objects[1]["data"] as! [String: Any]
        #expect(change["line_number"] as? Int == 4)
        #expect((change["old"] as! [String: Any])["text"] as? String == "EventLoop")
        #expect((change["new"] as! [String: Any])["text"] as? String == "RunLoop")
        #expect(change["applied"] as? Bool == false)
        #expect((objects[2]["data"] as! [String: Any])["replacements"] as? Int == 2)
    }

    @Test func patternsMayStartWithADash() throws {
        let file = tree.appendingPathComponent("Sources/Net/EventLoop.swift")
        #expect(try trawl(["replace", "--write", "--", "-> Void", "-> ()", file.path]).status == 0)
        #expect(String(decoding: try bytes(file), as: UTF8.self).contains("@escaping () -> ()"))
    }
}
