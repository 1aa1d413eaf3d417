import ArgumentParser
import Testing
import TrawlCLI
@testable import trawl

/// The hand parser of `find` command lines (the start-up fast path) against ArgumentParser, the
/// parser of record: every line the fast path takes must mean the same to ArgumentParser.
@Suite struct FindArgumentsTests {
    /// What ArgumentParser makes of `arguments`, or nil when it rejects them or they are not `find`.
    func parsedByArgumentParser(_ arguments: [String]) -> FindRequest? {
        (try? TrawlCommand.parseAsRoot(arguments) as? Find)?.request
    }

    @Test func theUsualCommandLinesTakeTheFastPathAndMeanTheSame() {
        let lines: [[String]] = [
            ["find", "-c", "preconditionFailure", "swift100m.txt"],
            ["find", "-c", "-i", "eventloop", "swift100m.txt"],
            ["find", "-ic", "eventloop"],
            ["find", "-l", "EventLoop", "Sources", "Tests"],
            ["find", "pattern", "-n", "--hidden", "--no-ignore", "-g", "*.swift", "--glob", "!Tests/**", "."],
            ["find", "-F", "-w", "-S", "-U", "a.b", "--count-matches", "--json", "--no-index", "--stats"],
            ["find", "-A", "2", "-B3", "--context=4", "--after-context", "5", "x"],
            ["find", "--color", "never", "--max-filesize", "10M", "--sort=path", "-L", "--no-require-git", "x"],
            ["find", "-N", "--line-number", "--files-with-matches", "--fixed-strings", "--ignore-case", "x"],
            ["find", "-cg", "*.txt", "x", "/tmp"],
            ["find", "--", "-c", "--json", "file"],
            ["find", "", "."],
            ["find", "x", "-c", "-c", "-A1", "-A", "7"],
        ]
        for line in lines {
            let fast = FindArgumentsFastPath.parse(line)
            #expect(fast != nil, "\(line) takes the fast path")
            #expect(fast == parsedByArgumentParser(line), "\(line)")
        }
    }

    @Test func linesItDoesNotReadAreLeftToArgumentParser() {
        let lines: [[String]] = [
            ["find"], ["find", "-c"], ["find", "--help"], ["find", "-h", "x"], ["find", "x", "--version"],
            ["find", "-x", "p"], ["find", "--counts", "p"], ["find", "--count=1", "p"], ["find", "--color=blue", "p"],
            ["find", "-A", "-1", "p"], ["find", "-A", "+1", "p"], ["find", "-A99999999999999999999", "p"],
            ["find", "--max-filesize", "5Q", "p"], ["find", "--max-filesize", "99999999999G", "p"],
            ["find", "--sort", "size", "p"], ["find", "-g"], ["find", "p", "-g", "-c"], ["find", "-gx", "p"],
            ["find", "-", "p"], ["find", "-cA3", "p"], ["find", "-é", "p"], ["replace", "a", "b"], ["index"], [],
            ["find", "--c", "x"], ["find", "--g", "*.swift", "x"], ["find", "--C=2", "x"], ["find", "--glob=", "x", "y"],
            ["find", "x", "--glob="],
        ]
        for line in lines {
            #expect(FindArgumentsFastPath.parse(line) == nil, "\(line)")
        }
    }

    /// Random command lines from the names both parsers know, misspellings, values good and bad
    /// and positionals that look like options: whatever the fast path takes, ArgumentParser takes
    /// to the same request.
    @Test func randomCommandLinesMeanTheSameToBothParsers() {
        let words = [
            "-c", "-i", "-l", "-n", "-N", "-F", "-S", "-w", "-U", "-L", "-ic", "-lw", "-cg", "-ix", "-h",
            "--count", "--count-matches", "--files-with-matches", "--ignore-case", "--smart-case", "--word-regexp",
            "--multiline", "--fixed-strings", "--line-number", "--no-line-number", "--hidden", "--no-ignore",
            "--no-require-git", "--follow", "--stats", "--json", "--no-index", "--counts", "--count=1",
            "-g", "--glob", "--glob=*.md", "--max-filesize", "--max-filesize=2K", "--sort", "--sort=path",
            "--color", "--color=always", "--color=no", "-A", "-B", "-C", "-A2", "-B0", "-C12", "-A-1",
            "--after-context", "--before-context=1", "--context", "--context=x",
            "--c", "--i", "--g", "--A", "--C=2", "--glob=", "--sort=", "--color=", "-g=x", "-A=3", "-c=", "-cA", "-Ai",
            "---", "-=", "-\u{301}c", "find", "help",
            "--", "-", "x", "a b", "é", "", "3", "-3", "path", "*.swift", "10M", "never", "auto",
        ] + Self.tableNames
        var random = SeededGenerator(seed: 0x5EED_A7A5)
        var taken = 0
        for _ in 0..<1500 {
            let line = ["find"] + (0..<Int.random(in: 0...6, using: &random)).map { _ in words.randomElement(using: &random)! }
            guard let fast = FindArgumentsFastPath.parse(line) else { continue }
            taken += 1
            #expect(fast == parsedByArgumentParser(line), "\(line)")
        }
        #expect(taken > 120, "the random lines reach the fast path often enough to test it (\(taken))")
    }
}

extension FindArgumentsTests {
    /// Every name of the flag table (`FindFlags`), short and long: a flag added there is in the
    /// random lines above without a word more.
    static var tableNames: [String] {
        let flags = FindFlags.pattern.map { ($0.short, $0.long) } + FindFlags.walk.map { ($0.short, $0.long) }
            + FindFlags.find.map { ($0.short, $0.long) }
        let options = FindFlags.walkOptions.map { ($0.short, $0.long) } + FindFlags.findOptions.map { ($0.short, $0.long) }
        return (flags + options).flatMap { short, long in ["--" + long] + (short.map { ["-\($0)"] } ?? []) }
            + options.map { "--\($0.1)=1" }
    }

    /// ArgumentParser declares every entry of the table, with the table's help.
    @Test func theCommandDeclaresEveryEntryOfTheTable() throws {
        let help = try trawl(["find", "--help"]).stdout
        let entries = FindFlags.pattern.map { ($0.short, $0.long, $0.help) } + FindFlags.walk.map { ($0.short, $0.long, $0.help) }
            + FindFlags.find.map { ($0.short, $0.long, $0.help) } + FindFlags.walkOptions.map { ($0.short, $0.long, $0.help) }
            + FindFlags.findOptions.map { ($0.short, $0.long, $0.help) }
        #expect(entries.count == 24)
        // Help text is wrapped to the terminal's width: compare without white space.
        let flatHelp = help.filter { !$0.isWhitespace }
        for (short, long, text) in entries {
            #expect(help.contains("--\(long)"), "--\(long)")
            if let short { #expect(help.contains("-\(short)"), "-\(short)") }
            #expect(flatHelp.contains(text.filter { !$0.isWhitespace }), "\(long): \(text)")
        }
    }
}

/// The hand parser of `index` command lines against ArgumentParser.
@Suite struct IndexArgumentsTests {
    /// Path, --stats, --rebuild and --watch as ArgumentParser reads them, or nil when it rejects the line.
    func parsedByArgumentParser(_ arguments: [String]) -> (root: String, stats: Bool, rebuild: Bool, watch: Bool)? {
        guard let index = try? TrawlCommand.parseAsRoot(arguments) as? Index else { return nil }
        return (commandLinePath(index.path).string, index.stats, index.rebuild, index.watch)
    }

    @Test func theUsualCommandLinesTakeTheFastPathAndMeanTheSame() {
        let lines: [[String]] = [
            ["index"], ["index", "."], ["index", "/tmp/tree"], ["index", "--stats"], ["index", "--rebuild", "tree"],
            ["index", "tree", "--stats", "--rebuild"], ["index", "--stats", "--stats"], ["index", ""], ["index", "--watch"],
            ["index", "tree", "--watch", "--stats"],
        ]
        for line in lines {
            let fast = IndexArgumentsFastPath.parse(line)
            #expect(fast != nil, "\(line) takes the fast path")
            let parsed = parsedByArgumentParser(line)
            #expect(parsed != nil, "\(line)")
            #expect(fast?.root.string == parsed?.root && fast?.stats == parsed?.stats && fast?.rebuild == parsed?.rebuild
                    && fast?.watch == parsed?.watch, "\(line)")
        }
    }

    @Test func linesItDoesNotReadAreLeftToArgumentParser() {
        for line in [["index", "a", "b"], ["index", "--help"], ["index", "-h"], ["index", "--stat"], ["index", "--", "-x"],
                     ["index", "--stats=1"], ["find", "x"], []] {
            #expect(IndexArgumentsFastPath.parse(line) == nil, "\(line)")
        }
    }
}
