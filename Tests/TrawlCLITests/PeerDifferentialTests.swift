import Foundation
import Testing

/// trawl against the tools people compare it with, on the same inputs: match counts equal
/// ripgrep's, and replaced trees are byte-identical to sd's. Scripts/test.sh installs both; a
/// missing tool is reported as a skip with its reason. Set TRAWL_CORPUS to a folder (such as the
/// tree from ../shared/tools/make-corpus.sh) to run the ripgrep comparison on it too.
@Suite struct PeerDifferentialTests {
    static let patterns = ["\\w+Error\\b", "func\\s+\\w+\\(", "(struct|class|enum|protocol)\\s+[A-Z]\\w*", "[a-z]+ing\\b",
                           "(?i)eventloop", "EventLoop", "self", "\\bthe\\b"]

    /// `path: count` lines, sorted, with paths made relative.
    func counts(_ output: String, root: String) -> [String] {
        // (rg --crlf ends its own output lines with CRLF.)
        output.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { line in
            var text = String(line)
            if text.hasPrefix(root + "/") { text.removeFirst(root.count + 1) }
            if text.hasPrefix("./") { text.removeFirst(2) }
            return text
        }.sorted()
    }

    @Test(.enabled(if: tool("rg") != nil, "ripgrep (rg) is not installed; Scripts/test.sh installs it"))
    func countMatchesEqualRipgrep() throws {
        let rg = try #require(tool("rg"))
        var roots = [fixtures.appendingPathComponent("match").path, fixtures.appendingPathComponent("tree").path]
        if let corpus = ProcessInfo.processInfo.environment["TRAWL_CORPUS"] { roots.append(corpus) }
        for root in roots {
            for pattern in Self.patterns {
                let expected = try runTool(rg, ["-P", "--count-matches", "--crlf", "--no-messages", "-e", pattern, root]).stdout
                let actual = try trawl(["find", "--count-matches", pattern, root])
                #expect(counts(actual.stdout, root: root) == counts(expected, root: root), "\(pattern) in \(root)")
            }
        }
    }

    @Test(.enabled(if: tool("sd") != nil, "sd is not installed; Scripts/test.sh installs it"), arguments: [
        (["EventLoop", "RunLoop"], ["EventLoop", "RunLoop"]),
        (["-F", "()", "(Void)"], ["-s", "()", "(Void)"]),
        (["(\\w+)Loop\\b", "${1}Queue"], ["(\\w+)Loop\\b", "${1}Queue"]),
        (["public (let|var) (\\w+)", "private $1 $2"], ["public (let|var) (\\w+)", "private $1 $2"]),
        (["\\s+$", ""], ["[ \\t]+$", ""]),
    ])
    func replacedTreesAreByteIdenticalToSd(trawlArguments: [String], sdArguments: [String]) throws {
        let sd = try #require(tool("sd"))
        let mine = try copyOfFixture("tree"), theirs = try copyOfFixture("tree")
        let files = ["Sources/App/main.swift", "Sources/Net/EventLoop.swift", "Sources/Net/Server.swift", "docs/NOTES.md", "vendor/keep.swift"]
        let run = try trawl(["replace", "--write"] + trawlArguments + ["--"] + files, in: mine)
        #expect(run.status == 0 || run.status == 1)
        #expect(try runTool(sd, sdArguments + files, in: theirs).status == 0)
        #expect(try snapshotTree(mine) == snapshotTree(theirs), "\(trawlArguments)")
    }

    /// JSON objects with the timing fields removed (they differ from run to run).
    func jsonWithoutTimes(_ output: String) throws -> [NSDictionary] {
        func strip(_ value: Any) -> Any {
            guard let object = value as? [String: Any] else { return value }
            return object.filter { !$0.key.hasPrefix("elapsed") }.mapValues(strip)
        }
        return try output.split(separator: "\n").map {
            strip(try JSONSerialization.jsonObject(with: Data($0.utf8))) as! NSDictionary
        }
    }

    @Test(.enabled(if: tool("rg") != nil, "ripgrep (rg) is not installed; Scripts/test.sh installs it"),
          arguments: [["-U", "abc\\ndef"], ["-C1", "needle"], ["-U", "x\\n(y\\n)+"], ["needle"], ["-A1", "^$"]])
    func jsonLinesEqualRipgreps(arguments: [String]) throws {
        let rg = try #require(tool("rg"))
        let folder = scratchURL("json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = ["a.txt": "xabc\ndefx\nneedle\nabc\ndef\n\nx\ny\ny\nz\n", "b.txt": "one\r\nneedle\r\n\r\ntwo\r\nneedle\r\n",
                     "c.txt": "no match here\n"]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        // --crlf: Trawl's `$` matches before a CRLF too (as rg does with it).
        let expected = try runTool(rg, ["--json", "--crlf", "--sort", "path"] + arguments + ["a.txt", "b.txt", "c.txt"], in: folder)
        let actual = try trawl(["find", "--json"] + arguments + ["a.txt", "b.txt", "c.txt"], in: folder)
        #expect(actual.status == expected.status)
        #expect(try jsonWithoutTimes(actual.stdout) == jsonWithoutTimes(expected.stdout), "\(arguments)\n\(actual.stdout)\n\(expected.stdout)")
    }

    /// Text output of several files, byte for byte: "--" parts context groups, within a file and
    /// between files (a file without a match adds none).
    @Test(.enabled(if: tool("rg") != nil, "ripgrep (rg) is not installed; Scripts/test.sh installs it"),
          arguments: [["-n", "-C1", "needle"], ["-A1", "needle"], ["-B2", "needle"], ["needle"], ["-n", "-C5", "needle"]])
    func contextLinesEqualRipgreps(arguments: [String]) throws {
        let rg = try #require(tool("rg"))
        let folder = scratchURL("context")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = ["a.txt": "needle\n1\n2\n3\n4\n5\nneedle\n7\n", "b.txt": "x\ny\nneedle\n", "c.txt": "no match here\n",
                     "d.txt": "needle\n"]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let names = files.keys.sorted()
        let expected = try runTool(rg, ["--no-heading", "--sort", "path"] + arguments + names, in: folder)
        let actual = try trawl(["find"] + arguments + names, in: folder)
        #expect(actual.status == expected.status)
        #expect(actual.stdout == expected.stdout, "\(arguments)\n\(actual.stdout)\n\(expected.stdout)")
    }

    @Test(.enabled(if: tool("rg") != nil, "ripgrep (rg) is not installed; Scripts/test.sh installs it"),
          arguments: ["foo\nbar\nfood\n", "nothing\n"])
    func jsonOfStandardInputEqualsRipgreps(input: String) throws {
        let rg = try #require(tool("rg"))
        let expected = try runTool(rg, ["--json", "foo"], input: input)
        let actual = try trawl(["find", "--json", "foo"], input: input)
        #expect(actual.status == expected.status)
        #expect(try jsonWithoutTimes(actual.stdout) == jsonWithoutTimes(expected.stdout), "\(actual.stdout)\n\(expected.stdout)")
    }
}
