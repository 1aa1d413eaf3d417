import Foundation
import Testing

/// `trawl find` end to end, on a copy of Fixtures/tree.
@Suite struct FindCommandTests {
    let tree: URL
    init() throws { tree = try copyOfFixture("tree") }

    @Test func findsAndSetsTheExitStatus() throws {
        let found = try trawl(["find", "EventLoop\\b", "Sources"], in: tree)
        #expect(found.status == 0)
        #expect(found.stdoutLines.contains("Sources/Net/EventLoop.swift:public final class EventLoop {"))
        #expect(try trawl(["find", "NoSuchThing", "."], in: tree).status == 1)
        let invalid = try trawl(["find", "(unclosed", "."], in: tree)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("missing closing parenthesis") && invalid.stderr.contains("offset 9"))
        #expect(try trawl(["find", "x", "missing-path"], in: tree).status == 2)
        // An empty pattern finds nothing in an editor; the command says so instead of printing
        // every line.
        for arguments in [["find", ""], ["find", "-F", ""], ["replace", "", "x"]] {
            let empty = try trawl(arguments + ["."], in: tree)
            #expect(empty.status == 2 && empty.stderr.contains("the pattern is empty"), "\(arguments)")
        }
    }

    @Test func ignoreRulesHiddenFilesAndBinaries() throws {
        let files = try trawl(["find", "-l", "EventLoop", "."], in: tree).stdoutLines.sorted()
        #expect(files == ["./Sources/App/main.swift", "./Sources/Net/EventLoop.swift", "./Sources/Net/Server.swift",
                          "./docs/NOTES.md", "./vendor/keep.swift"], "build/, vendor/*, *.log, hidden and binary files are skipped")
        let everything = try trawl(["find", "-l", "EventLoop", ".", "--no-ignore", "--hidden"], in: tree).stdoutLines
        #expect(everything.contains("./build/output.txt") && everything.contains("./debug.log") && everything.contains("./.config/settings.txt"))
        #expect(everything.contains("./vendor/copy.swift"))
        #expect(!everything.contains("./image.bin"), "binary files are never searched")
        let explicit = try trawl(["find", "EventLoop", "image.bin"], in: tree)
        #expect(explicit.status == 1 && explicit.stderr.contains("binary file"))
    }

    @Test func ignoreFilesAboveTheSearchRootApply() throws {
        let ignore = tree.appendingPathComponent(".gitignore")
        try (String(contentsOf: ignore, encoding: .utf8) + "/Sources/Net/Server.swift\n").write(to: ignore, atomically: true, encoding: .utf8)
        let files = try trawl(["find", "-l", "EventLoop", "Sources"], in: tree).stdoutLines.sorted()
        #expect(files == ["Sources/App/main.swift", "Sources/Net/EventLoop.swift"])
        let inside = try trawl(["find", "-l", "EventLoop", "."], in: tree.appendingPathComponent("Sources/Net")).stdoutLines
        #expect(inside == ["./EventLoop.swift"])
    }

    @Test func gitignoreCountsOnlyInsideARepository() throws {
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".git"))
        let outside = try trawl(["find", "-l", "EventLoop", "."], in: tree).stdoutLines
        #expect(outside.contains("./build/output.txt"), "no .git: .gitignore does not apply, as in ripgrep")
        let forced = try trawl(["find", "-l", "EventLoop", ".", "--no-require-git"], in: tree).stdoutLines
        #expect(!forced.contains("./build/output.txt"))
    }

    @Test func nestedIgnoreFilesAndGitExclude() throws {
        try FileManager.default.createDirectory(at: tree.appendingPathComponent(".git/info"), withIntermediateDirectories: true)
        try "docs/\n".write(to: tree.appendingPathComponent(".git/info/exclude"), atomically: true, encoding: .utf8)
        try "*.swift\n!EventLoop.swift\n".write(to: tree.appendingPathComponent("Sources/Net/.gitignore"), atomically: true, encoding: .utf8)
        try "main.swift\n".write(to: tree.appendingPathComponent("Sources/.ignore"), atomically: true, encoding: .utf8)
        let files = try trawl(["find", "-l", "EventLoop", "."], in: tree).stdoutLines.sorted()
        #expect(files == ["./Sources/Net/EventLoop.swift", "./vendor/keep.swift"])
    }

    @Test func globsAndSizeLimits() throws {
        // As in ripgrep, -g globs override the ignore files where they decide: an include glob for
        // every file, an exclude glob only for what it matches (checked against rg 13 on this tree).
        let swift = try trawl(["find", "-l", "EventLoop", ".", "-g", "*.swift"], in: tree).stdoutLines.sorted()
        #expect(swift == ["./Sources/App/main.swift", "./Sources/Net/EventLoop.swift", "./Sources/Net/Server.swift",
                          "./vendor/copy.swift", "./vendor/keep.swift"])
        let noNet = try trawl(["find", "-l", "EventLoop", ".", "-g", "!Net"], in: tree).stdoutLines.sorted()
        #expect(noNet == ["./Sources/App/main.swift", "./docs/NOTES.md", "./vendor/keep.swift"])
        let small = try trawl(["find", "-l", "EventLoop", ".", "--max-filesize", "100"], in: tree).stdoutLines.sorted()
        #expect(small == ["./docs/NOTES.md", "./vendor/keep.swift"])
    }

    @Test func caseAndWordFlags() throws {
        #expect(try trawl(["find", "-c", "eventloop", "Sources/Net/EventLoop.swift"], in: tree).stdout == "")
        #expect(try trawl(["find", "-c", "-i", "eventloop", "Sources/Net/EventLoop.swift"], in: tree).stdout == "3\n")
        #expect(try trawl(["find", "-c", "-S", "eventloop", "Sources/Net/EventLoop.swift"], in: tree).stdout == "3\n")
        #expect(try trawl(["find", "-c", "-S", "Eventloop", "Sources/Net/EventLoop.swift"], in: tree).stdout == "")
        #expect(try trawl(["find", "--count-matches", "-F", "()", "Sources/Net/EventLoop.swift"], in: tree).stdout == "5\n")
        #expect(try trawl(["find", "--count-matches", "-w", "Loop", "Sources/App/main.swift"], in: tree).status == 1)
        #expect(try trawl(["find", "--count-matches", "Loop", "Sources/App/main.swift"], in: tree).stdout == "2\n")
        #expect(try trawl(["find", "--count-matches", "-w", "loop", "Sources/App/main.swift"], in: tree).stdout == "4\n")
        #expect(try trawl(["find", "-c", "--", "-> Void", "Sources/Net/EventLoop.swift"], in: tree).stdout == "2\n", "-- ends options")
    }

    @Test func aNeedleTooLongForPCRE2IsAnErrorNotACrash() throws {
        // Caseless `s` also matches the long s, so PCRE2 matches this needle; 30,000 of them are more
        // than it compiles.
        let needle = String(repeating: "s", count: 30_000)
        for flags in [["-i"], ["-i", "-F"]] {
            let run = try trawl(["find", "-c"] + flags + [needle, "Sources/Net/EventLoop.swift"], in: tree)
            #expect(run.status == 2, "\(flags)")
            #expect(run.stderr.contains("too large"), "\(flags): \(run.stderr.prefix(300))")
        }
    }

    @Test func countsLinesVersusMatches() throws {
        let lines = try trawl(["find", "-c", "t", "Sources"], in: tree).stdoutLines
        let matches = try trawl(["find", "--count-matches", "t", "Sources"], in: tree).stdoutLines
        // rg -c t / rg --count-matches t give 6 and 26 for main.swift.
        #expect(lines.contains("Sources/App/main.swift:6"))
        #expect(matches.contains("Sources/App/main.swift:26"))
    }

    @Test func aLargeFileCountedInPartsCountsAsOneSearchWould() throws {
        // Past the size where counting runs in parts on all cores; the counts from the words.
        var random = SeededGenerator(seed: 5)
        let words = ["needle", "needles", "xneedle", "Needle", "é", "hay", "needle_", "naïve"]
        var lines: [[String]] = []
        var size = 0
        while size < (8 << 20) + 100_000 {
            let line = (0..<Int.random(in: 0...12, using: &random)).map { _ in words.randomElement(using: &random)! }
            size += line.joined(separator: " ").utf8.count + 1
            lines.append(line)
        }
        let folder = try temporaryFolder("parted")
        let file = folder.appendingPathComponent("big.txt")
        try Data(lines.map { $0.joined(separator: " ") + "\n" }.joined().utf8).write(to: file)
        let occurrences = lines.map { line in line.reduce(0) { $0 + ($1.contains("needle") ? 1 : 0) } }
        let whole = lines.map { line in line.filter { $0 == "needle" }.count }
        #expect(try trawl(["find", "-c", "needle", file.path]).stdout == "\(occurrences.filter { $0 > 0 }.count)\n")
        #expect(try trawl(["find", "--count-matches", "needle", file.path]).stdout == "\(occurrences.reduce(0, +))\n")
        #expect(try trawl(["find", "-c", "\\bneedle\\b", file.path]).stdout == "\(whole.filter { $0 > 0 }.count)\n")
        #expect(try trawl(["find", "--count-matches", "\\bneedle\\b", file.path]).stdout == "\(whole.reduce(0, +))\n")
        #expect(try trawl(["find", "-l", "naïve", file.path]).stdout == file.path + "\n")
        #expect(try trawl(["find", "-l", "absent", file.path]).status == 1)
    }

    @Test func aLargeFileWithABadByteIsSkippedWhetherCountedOrPrinted() throws {
        // Mapped, and counted while it is checked (-c, --count-matches, -l) or checked first (lines,
        // -U): the same skip, with the first bad byte's offset, and nothing printed.
        let line = Array("needle hay\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity((9 << 20) + line.count)
        while bytes.count < 9 << 20 { bytes += line }
        let folder = try temporaryFolder("badbyte")
        for (at, byte) in [(bytes.count - 5, UInt8(0xFF)), (bytes.count / 3 + 1, 0xC3), (bytes.count / 2, 0x00)] {
            var broken = bytes
            broken[at] = byte
            let file = folder.appendingPathComponent("big.txt")
            try Data(broken).write(to: file)
            let said = byte == 0 ? "big.txt: binary file; skipped" : "big.txt: not valid UTF-8 (first bad byte at offset \(at)); skipped"
            for arguments in [["-c", "needle"], ["--count-matches", "needle"], ["-l", "hay"], ["needle"], ["-c", "-U", "needle\\nhay"]] {
                let run = try trawl(["find"] + arguments + [file.path])
                #expect(run.status == 1 && run.stdout.isEmpty, "\(arguments)")
                #expect(run.stderr.contains(said), "\(arguments): \(run.stderr)")
            }
        }
    }

    @Test func multilineNeedsExplicitLineBreaksOrU() throws {
        #expect(try trawl(["find", "-c", "Int\\) \\{\\s+precondition", "Sources/Net/EventLoop.swift"], in: tree).status == 1)
        #expect(try trawl(["find", "-c", "-U", "Int\\) \\{\\s+precondition", "Sources/Net/EventLoop.swift"], in: tree).stdout == "1\n",
                "with -U, -c counts matches, as rg does")
        #expect(try trawl(["find", "--count-matches", "Server \\{\\n", "Sources/Net/Server.swift"], in: tree).stdout == "1\n",
                "\\n matches the CRLF of Server.swift")
    }

    @Test func lineNumbersContextAndSeparators() throws {
        let run = try trawl(["find", "-n", "-C", "1", "tasks", "Sources/Net/EventLoop.swift"], in: tree)
        // Byte for byte what `rg -n -C 1 tasks` prints for this file.
        #expect(run.stdout == """
            1:/// An EventLoop runs tasks on a fixed set of threads.
            2-public final class EventLoop {
            3-    public let threadCount: Int
            4:    private var tasks: [() -> Void] = []
            5-
            --
            11-    public func execute(_ task: @escaping () -> Void) {
            12:        tasks.append(task)
            13-    }
            --
            15-    public func run() {
            16:        while !tasks.isEmpty {
            17:            let task = tasks.removeFirst()
            18-            task()

            """)
        let after = try trawl(["find", "-N", "-A", "1", "public init", "Sources/Net/Server.swift"], in: tree)
        // Server.swift has CRLF line endings: lines are printed byte for byte, CR included (as rg does).
        #expect(after.stdout == "    public init(on loop: EventLoop, port: Int) {\r\n        self.loop = loop\r\n")
        let before = try trawl(["find", "-n", "-B", "2", "Server \\{", "Sources/Net/Server.swift"], in: tree)
        #expect(before.stdout == "2-\r\n3-/// A Server accepts connections on an EventLoop.\r\n4:public struct Server {\r\n")
    }

    @Test func jsonLinesFollowRipgrepsFormat() throws {
        let run = try trawl(["find", "--json", "Event(Loop)", "Sources/App/main.swift"], in: tree)
        let objects = try run.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["type"] as! String } == ["begin", "match", "match", "end", "summary"])
        let match = objects[2]["data"] as! [String: Any]
        #expect((match["lines"] as! [String: Any])["text"] as? String == "let loop = EventLoop(threads: 2)\n")
        #expect(match["line_number"] as? Int == 4)
        let submatch = (match["submatches"] as! [[String: Any]])[0]
        #expect(submatch["start"] as? Int == 11 && submatch["end"] as? Int == 20)
        #expect((submatch["match"] as! [String: Any])["text"] as? String == "EventLoop")
        let summary = (objects[4]["data"] as! [String: Any])["stats"] as! [String: Any]
        #expect(summary["matches"] as? Int == 2)
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        let plain = try trawl(["find", "EventLoop", "Sources/App/main.swift"], in: tree)
        #expect(!plain.stdout.contains("\u{1B}["), "piped output has no colour")
        let forced = try trawl(["find", "--color", "always", "EventLoop", "Sources/App/main.swift"], in: tree)
        #expect(forced.stdout.contains("\u{1B}[1;31mEventLoop\u{1B}[0m"))
        let never = try trawl(["find", "--color", "never", "EventLoop", "Sources/App/main.swift"], in: tree, environment: ["NO_COLOR": "1"])
        #expect(!never.stdout.contains("\u{1B}["))
    }

    @Test func statsAndSymlinks() throws {
        let stats = try trawl(["find", "EventLoop", ".", "--stats", "--sort", "path"], in: tree)
        #expect(stats.stderr.contains("files searched") && stats.stderr.contains("matches"))
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent("linked").path, withDestinationPath: "Sources")
        #expect(!(try trawl(["find", "-l", "EventLoop", "."], in: tree).stdoutLines.contains { $0.hasPrefix("./linked/") }))
        #expect(try trawl(["find", "-l", "-L", "EventLoop", "."], in: tree).stdoutLines.contains("./linked/Net/Server.swift"))
    }

    @Test func invalidUTF8IsReportedWithItsOffset() throws {
        let bad = try copyOfFixture("bad-input")
        let run = try trawl(["find", "EventLoop", "."], in: bad)
        #expect(run.status == 1, "a warning, not an error: nothing else was searched")
        #expect(run.stderr.contains("latin1.txt: not valid UTF-8 (first bad byte at offset 25); skipped"))
    }
}
