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

    @Test func countMatchesEqualRipgrep() throws {
        guard let rg = tool("rg") else {
            print("SKIPPED countMatchesEqualRipgrep: ripgrep (rg) is not installed; Scripts/test.sh installs it")
            return
        }
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

    @Test(arguments: [
        (["EventLoop", "RunLoop"], ["EventLoop", "RunLoop"]),
        (["-F", "()", "(Void)"], ["-s", "()", "(Void)"]),
        (["(\\w+)Loop\\b", "${1}Queue"], ["(\\w+)Loop\\b", "${1}Queue"]),
        (["public (let|var) (\\w+)", "private $1 $2"], ["public (let|var) (\\w+)", "private $1 $2"]),
        (["\\s+$", ""], ["[ \\t]+$", ""]),
    ])
    func replacedTreesAreByteIdenticalToSd(trawlArguments: [String], sdArguments: [String]) throws {
        guard let sd = tool("sd") else {
            print("SKIPPED replacedTreesAreByteIdenticalToSd: sd is not installed; Scripts/test.sh installs it")
            return
        }
        let mine = try copyOfFixture("tree"), theirs = try copyOfFixture("tree")
        let files = ["Sources/App/main.swift", "Sources/Net/EventLoop.swift", "Sources/Net/Server.swift", "docs/NOTES.md", "vendor/keep.swift"]
        let run = try trawl(["replace", "--write"] + trawlArguments + ["--"] + files, in: mine)
        #expect(run.status == 0 || run.status == 1)
        #expect(try runTool(sd, sdArguments + files, in: theirs).status == 0)
        #expect(try snapshotTree(mine) == snapshotTree(theirs), "\(trawlArguments)")
    }
}
