import Foundation
import Testing

/// `trawl index` and its use by `trawl find`: results with the index equal those without, through
/// changes, additions and deletions; an unusable index is reported and rebuilt, never trusted.
@Suite struct IndexCommandTests {
    static let queries = ["Error", "fn\\b", "ZZZabsent", "(struct|class)\\s+\\w+", "-i:rope", "needle", "-F:a.b", "-w:let"]

    func arguments(_ query: String) -> [String] {
        if query.hasPrefix("-i:") { return ["-i", String(query.dropFirst(3))] }
        if query.hasPrefix("-F:") { return ["-F", String(query.dropFirst(3))] }
        if query.hasPrefix("-w:") { return ["-w", String(query.dropFirst(3))] }
        return [query]
    }

    /// Every query and output mode gives the same bytes and status with and without the index.
    func expectSameResults(in tree: URL, _ comment: String) throws {
        for query in IndexCommandTests.queries {
            for mode in [[], ["-l"], ["--count-matches"]] {
                let with = try trawl(["find"] + mode + arguments(query) + ["."], in: tree)
                let without = try trawl(["find", "--no-index"] + mode + arguments(query) + ["."], in: tree)
                #expect(with.stdout == without.stdout && with.status == without.status, "\(comment): \(mode) \(query)")
                #expect(!with.stderr.contains("index"), "\(comment): \(with.stderr)")
            }
            // The files the index rules out count as searched: the same totals as a walk's.
            let with = try trawl(["find", "--stats", "-l"] + arguments(query) + ["."], in: tree)
            let without = try trawl(["find", "--stats", "--no-index", "-l"] + arguments(query) + ["."], in: tree)
            #expect(totals(with.stderr) == totals(without.stderr), "\(comment): \(query)")
        }
    }

    /// The counts of `--stats` (files, bytes, files with matches, matches, lines), without the time.
    func totals(_ stderr: String) -> [Substring] {
        let line = stderr.split(separator: "\n").first { $0.contains("files searched") } ?? ""
        return Array(line.split(separator: ",").prefix(5))
    }

    /// Sets a file's modification time well in the past (so that it is not "racily clean").
    func age(_ url: URL, seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: url.path)
    }

    func ageAll(_ tree: URL) throws {
        let files = FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil)!
        for case let url as URL in files { try age(url, seconds: 3600) }
    }

    @Test func findGivesTheSameResultsWithTheIndexThroughChanges() throws {
        let tree = try copyOfFixture("tree")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("match"), to: tree.appendingPathComponent("match"))
        try ageAll(tree)
        let built = try trawl(["index", "--stats", "."], in: tree)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("files"))
        #expect(FileManager.default.fileExists(atPath: tree.appendingPathComponent(".trawl/index").path))
        try expectSameResults(in: tree, "fresh index")

        // Changed, added and deleted files, before any refresh: changed files are searched.
        let changed = tree.appendingPathComponent("match/Rope.swift.txt")
        try (String(contentsOf: changed, encoding: .utf8) + "\nlet needle = ZZZabsent\n").write(to: changed, atomically: false, encoding: .utf8)
        try age(changed, seconds: 1800)
        try "struct Added { let needle: Int }\n".write(to: tree.appendingPathComponent("added.swift"), atomically: false, encoding: .utf8)
        let deleted = try FileManager.default.contentsOfDirectory(at: tree, includingPropertiesForKeys: nil).first { $0.pathExtension == "swift" && $0.lastPathComponent != "added.swift" }
        if let deleted { try FileManager.default.removeItem(at: deleted) }
        try expectSameResults(in: tree, "stale index")
        #expect(try trawl(["find", "-l", "ZZZabsent", "."], in: tree).stdout.contains("Rope.swift.txt"))

        // A refresh reads only what changed.
        try age(tree.appendingPathComponent("added.swift"), seconds: 1800)
        let refreshed = try trawl(["index", "--stats", "."], in: tree)
        #expect(refreshed.status == 0)
        #expect(refreshed.stdout.contains("(2 read"), "\(refreshed.stdout)")
        try expectSameResults(in: tree, "refreshed index")
    }

    /// A binary file the index lists is skipped unread while unchanged, as a search skips it;
    /// `replace --strict`, which makes each binary file an error, still reads it. Replace
    /// previews, with and without the index, are the same in both modes, a binary file changed
    /// to text included.
    @Test func replaceGivesTheSameResultsWithTheIndexBinaryFilesIncluded() throws {
        let tree = try copyOfFixture("tree")
        try ageAll(tree)
        #expect(try trawl(["index", "."], in: tree).status == 0)
        func expectSame(_ comment: String) throws {
            for strict in [[], ["--strict"]] {
                let with = try trawl(["replace", "--stats"] + strict + ["EventLoop", "RunLoop", "."], in: tree)
                let without = try trawl(["replace", "--stats", "--no-index"] + strict + ["EventLoop", "RunLoop", "."], in: tree)
                // The same messages and totals; only the time, and where the files came from, differ.
                func untimed(_ stderr: String) -> String { stderr.replacing(/, [0-9.]+s(, files listed by the index)?/, with: "") }
                #expect(with.stdout == without.stdout && with.status == without.status && untimed(with.stderr) == untimed(without.stderr),
                        "\(comment) \(strict): \(with.stderr) / \(without.stderr)")
            }
            let with = try trawl(["find", "--stats", "-l", "EventLoop", "."], in: tree)
            let without = try trawl(["find", "--stats", "--no-index", "-l", "EventLoop", "."], in: tree)
            #expect(with.stdout == without.stdout && totals(with.stderr) == totals(without.stderr), "\(comment): \(with.stderr) / \(without.stderr)")
        }
        try expectSame("binary file indexed as binary")
        // The binary file becomes text holding a match: searched again.
        let binary = tree.appendingPathComponent("image.bin")
        try "let e: EventLoop\n".write(to: binary, atomically: false, encoding: .utf8)
        try age(binary, seconds: 1700)
        try expectSame("binary file changed to text")
    }

    /// The lines of a run's error output that say a file was skipped (not valid UTF-8, UTF-16).
    func skipNotes(_ stderr: String) -> [Substring] { stderr.split(separator: "\n").filter { $0.contains("skipped") } }

    /// Writes a file that is not valid UTF-8 (its first bad byte at `offset`, a needle before it)
    /// and one in UTF-16, aged.
    func writeUndecodableFiles(in folder: URL, badByteAt offset: Int) throws {
        var latin = Array("needle ".utf8)
        latin += Array(repeating: UInt8(ascii: "x"), count: max(0, offset - latin.count)) + [0xE9, 0x0A]
        try Data(latin).write(to: folder.appendingPathComponent("latin1.txt"))
        try Data([0xFF, 0xFE] + "needle\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: folder.appendingPathComponent("wide.txt"))
        for name in ["latin1.txt", "wide.txt"] { try age(folder.appendingPathComponent(name), seconds: 1800) }
    }

    /// Files a search skips as not UTF-8 are listed with why: while they are unchanged, a search
    /// with the index says so without reading them, in the same words (the offset of the first
    /// bad byte included) and order; changed, they are read again.
    @Test func filesSkippedAsNotUTF8AreReportedTheSameWithTheIndex() throws {
        let tree = try copyOfFixture("tree")
        try writeUndecodableFiles(in: tree.appendingPathComponent("docs"), badByteAt: 40)
        try ageAll(tree)
        #expect(try trawl(["index", "."], in: tree).status == 0)
        func expectSame(_ comment: String) throws {
            for arguments in [["-l", "needle"], ["--stats", "needle"], ["-l", "ZZZabsent"]] {
                let with = try trawl(["find"] + arguments + ["."], in: tree)
                let without = try trawl(["find", "--no-index"] + arguments + ["."], in: tree)
                #expect(with.stdout == without.stdout && with.status == without.status, "\(comment) \(arguments)")
                #expect(skipNotes(with.stderr) == skipNotes(without.stderr) && totals(with.stderr) == totals(without.stderr),
                        "\(comment) \(arguments): \(with.stderr) / \(without.stderr)")
                #expect(skipNotes(with.stderr).count == 2, "\(comment): \(with.stderr)")
            }
        }
        try expectSame("listed")
        // The bad byte moves: the file changed, so what the listing says of it no longer counts.
        try writeUndecodableFiles(in: tree.appendingPathComponent("docs"), badByteAt: 90)
        try expectSame("changed")
        #expect(try trawl(["index", "."], in: tree).status == 0)
        try expectSame("refreshed")
    }

    @Test func anUnusableIndexIsReportedAndRebuilt() throws {
        let tree = try copyOfFixture("tree")
        try ageAll(tree)
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let file = tree.appendingPathComponent(".trawl/index")
        var bytes = try Data(contentsOf: file)
        for (label, damage) in [("truncated", { (data: inout Data) in data = data.prefix(data.count / 2) }),
                                ("altered", { (data: inout Data) in data[70] ^= 0x5A })] {
            var damaged = bytes
            damage(&damaged)
            try damaged.write(to: file)
            let found = try trawl(["find", "-c", "fn", "."], in: tree)
            let plain = try trawl(["find", "--no-index", "-c", "fn", "."], in: tree)
            #expect(found.stdout == plain.stdout, "\(label)")
            // An altered body fails its authenticator: damage and a foreign index look alike.
            #expect(found.stderr.contains("corrupt index") || found.stderr.contains("not a Trawl index") || found.stderr.contains("not trusted"),
                    "\(label): \(found.stderr)")
            let rebuilt = try trawl(["index", "."], in: tree)
            #expect(rebuilt.status == 0 && rebuilt.stderr.contains("building it again"), "\(label): \(rebuilt.stderr)")
            #expect(try trawl(["find", "-c", "fn", "."], in: tree).stderr.isEmpty)
            bytes = try Data(contentsOf: file)
        }
    }

    /// A refresh reads no segment's table (it queries nothing): a damaged one is found by the
    /// search that reads it, which says how to rebuild, and `--rebuild` does.
    @Test func aDamagedSegmentIsFoundBySearchesAndRebuiltOnRequest() throws {
        let tree = try copyOfFixture("tree")
        try ageAll(tree)
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let folder = tree.appendingPathComponent(".trawl")
        let segment = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("postings-") }!
        let file = folder.appendingPathComponent(segment)
        var bytes = try Data(contentsOf: file)
        bytes[40] ^= 0x5A // in the first table entry
        try bytes.write(to: file)
        let found = try trawl(["find", "-c", "fn", "."], in: tree)
        #expect(found.stdout == (try trawl(["find", "--no-index", "-c", "fn", "."], in: tree)).stdout)
        #expect(found.stderr.contains("corrupt index") && found.stderr.contains("trawl index --rebuild"), "\(found.stderr)")
        let refreshed = try trawl(["index", "."], in: tree)
        #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "\(refreshed.stderr)")
        let rebuilt = try trawl(["index", "--rebuild", "--stats", "."], in: tree)
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("built"), "\(rebuilt.stdout) \(rebuilt.stderr)")
        #expect(try trawl(["find", "-c", "fn", "."], in: tree).stderr.isEmpty)
        try expectSameResults(in: tree, "rebuilt")
    }

    @Test func theIndexFolderIsNeverSearched() throws {
        let tree = try copyOfFixture("tree")
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let listed = try trawl(["find", "--hidden", "-l", "TRAWLIX", "."], in: tree)
        #expect(!listed.stdout.contains(".trawl"))
    }
}
