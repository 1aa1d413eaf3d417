import Foundation
import SystemPackage
import Testing
import TrawlFiles
import TrawlIndex
import TrawlMatch

/// What `trawl find --json` and `trawl replace` do, an editor does through the public API alone:
/// the same files (walked, or listed by the tree's index), the same lines and matches, the same
/// planned changes, the same bytes written.
@Suite struct LibraryParityTests {
    /// A tree of seeded random files: text with several matches a line, CRLF, a BOM, a binary
    /// file, an ignored folder, nested folders.
    func makeTree(seed: UInt64) throws -> URL {
        var random = SeededGenerator(seed: seed)
        let root = try temporaryFolder("parity")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("ignored/\n".utf8).write(to: root.appendingPathComponent(".gitignore"))
        let words = ["alpha", "Alpha", "beta", "gamma", "alphabet", "α", "straße", "x1", "\r\n", "\n", " ", "-", "alpha_beta"]
        for index in 0..<40 {
            let folder = ["", "a/", "a/b/", "c/", "ignored/"][index % 5]
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            var text = index % 7 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<Int.random(in: 0...300, using: &random) { text += words.randomElement(using: &random)! }
            try Data(text.utf8).write(to: root.appendingPathComponent("\(folder)f\(index).txt"))
        }
        try Data([0x61, 0x6C, 0x70, 0x68, 0x61, 0, 1, 2]).write(to: root.appendingPathComponent("a/blob.bin"))
        return root
    }

    /// A line as `trawl find --json` describes it: path, number, offset, whether it matched, and
    /// the matches on it (relative to the line).
    struct Line: Hashable, CustomStringConvertible {
        var path: String
        var number: Int
        var offset: Int
        var isMatch: Bool
        var submatches: [Range<Int>]
        var description: String { "\(path):\(number)@\(offset) \(isMatch ? "match" : "context") \(submatches)" }
    }

    func lines(fromJSON output: String) throws -> [Line] {
        try output.split(separator: "\n").compactMap { text -> Line? in
            let message = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            guard let type = message["type"] as? String, type == "match" || type == "context" else { return nil }
            let data = try #require(message["data"] as? [String: Any])
            let path = try #require((data["path"] as? [String: Any])?["text"] as? String)
            let submatches = try #require(data["submatches"] as? [[String: Any]]).map { ($0["start"] as! Int)..<($0["end"] as! Int) }
            return Line(path: path, number: data["line_number"] as! Int, offset: data["absolute_offset"] as! Int, isMatch: type == "match",
                        submatches: submatches)
        }
    }

    func lines(fromLibrary root: URL, _ query: FindQuery, context: Int) throws -> [Line] {
        let matcher = try query.makeMatcher()
        let files = IndexedFiles([FilePath(root.path)], query: matcher.literalQuery)
        var found: [Line] = []
        let summary = TreeSearch(files).findMatches(of: matcher, lines: LineSearcher(linesBefore: context, linesAfter: context)) { file in
            for line in file.lines {
                let submatches = line.matches.map { max($0.lowerBound, line.range.lowerBound) - line.range.lowerBound
                    ..< min($0.upperBound, line.range.upperBound) - line.range.lowerBound }
                found.append(Line(path: file.path.string, number: line.number, offset: line.range.lowerBound, isMatch: !line.isContext,
                                  submatches: submatches))
            }
        }
        #expect(summary.walk.errors.isEmpty)
        return found
    }

    static let queries: [(pattern: String, literal: Bool, caseless: Bool, wholeWord: Bool)] = [
        ("alpha", true, false, false), ("alpha", false, true, false), ("alpha", false, false, true), ("al+pha|beta", false, false, false),
        ("[a-z]+_[a-z]+", false, false, false), ("straße", true, true, false), ("^gamma", false, false, false), ("a$", false, false, false),
    ]

    func query(_ entry: (pattern: String, literal: Bool, caseless: Bool, wholeWord: Bool)) -> FindQuery {
        var query = FindQuery(pattern: entry.pattern, syntax: entry.literal ? .literal : .regex)
        query.caseMode = entry.caseless ? .insensitive : .sensitive
        query.wholeWord = entry.wholeWord
        return query
    }

    func flags(_ entry: (pattern: String, literal: Bool, caseless: Bool, wholeWord: Bool)) -> [String] {
        (entry.literal ? ["-F"] : []) + (entry.caseless ? ["-i"] : []) + (entry.wholeWord ? ["-w"] : [])
    }

    @Test(arguments: [false, true])
    func findGivesWhatFindJSONPrints(indexed: Bool) throws {
        let root = try makeTree(seed: indexed ? 7 : 5)
        defer { try? FileManager.default.removeItem(at: root) }
        if indexed { try #require(try trawl(["index", root.path]).status == 0) }
        var compared = 0
        for entry in Self.queries {
            for context in [0, 1] {
                let run = try trawl(["find", "--json", "-C", String(context)] + flags(entry) + ["--", entry.pattern, root.path])
                #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
                let expected = try lines(fromJSON: run.stdout)
                let actual = try lines(fromLibrary: root, query(entry), context: context)
                #expect(actual == expected, "\(entry.pattern) -C \(context): \(actual.prefix(3)) vs \(expected.prefix(3))")
                compared += expected.count
            }
        }
        #expect(compared > 500)
    }

    /// Every file of a tree (but the index's folder), by path below the root.
    func contents(_ root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in walker where !url.path.contains("/.trawl") {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            result[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return result
    }

    @Test(arguments: [false, true])
    func replaceWritesWhatReplaceWrites(indexed: Bool) throws {
        for (seed, entry) in Self.queries.enumerated() {
            let cli = try makeTree(seed: UInt64(100 + seed)), library = try makeTree(seed: UInt64(100 + seed))
            defer {
                try? FileManager.default.removeItem(at: cli)
                try? FileManager.default.removeItem(at: library)
            }
            if indexed {
                try #require(try trawl(["index", cli.path]).status == 0)
                try #require(try trawl(["index", library.path]).status == 0)
            }
            let replacementText = entry.literal ? "R$0" : "<$0>"
            // The preview's changes, as JSON, against the library's plan.
            let preview = try trawl(["replace", "--json"] + flags(entry) + ["--", entry.pattern, replacementText, cli.path])
            let planned = preview.stdout.split(separator: "\n").filter { $0.contains("\"type\":\"change\"") }.count
            let matcher = try query(entry).makeMatcher()
            let template = entry.literal ? ReplacementTemplate(literal: replacementText) : try matcher.template(replacementText)
            let replacement = FileReplacement(matcher: matcher, template: template)
            let search = TreeSearch(IndexedFiles([FilePath(library.path)], query: matcher.literalQuery, skipsBinaryFiles: true))
            var plannedByLibrary = 0
            _ = search.replace(replacement, writes: false) { result in
                if case .planned(let changes) = result.outcome { plannedByLibrary += changes.count }
            }
            #expect(plannedByLibrary == planned, "\(entry.pattern)")
            #expect(try contents(cli) == contents(library), "a preview writes nothing")

            let written = try trawl(["replace", "--write"] + flags(entry) + ["--", entry.pattern, replacementText, cli.path])
            #expect(written.status == 0 || written.status == 1, "\(written.stderr)")
            var replaced = 0
            let summary = search.replace(replacement) { result in
                if case .replaced(let count, _) = result.outcome { replaced += count }
            }
            #expect(summary.walk.errors.isEmpty)
            #expect(replaced == planned, "\(entry.pattern)")
            let expected = try contents(cli), actual = try contents(library)
            #expect(actual == expected, "\(entry.pattern): \(actual.filter { expected[$0.key] != $0.value }.keys.sorted())")
        }
    }
}
