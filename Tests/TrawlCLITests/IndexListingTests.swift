import Foundation
import Testing

/// A tree's index lists the files to search without a walk while the tree's folders and ignore
/// files are unchanged, and notices every change that would make a walk find other files; a
/// refresh reads only what changed into a new segment, and a killed refresh leaves a usable index.
@Suite struct IndexListingTests {
    let checks = IndexCommandTests()

    func indexedTree() throws -> URL {
        let tree = try copyOfFixture("tree")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("match"), to: tree.appendingPathComponent("match"))
        try checks.ageAll(tree)
        let built = try trawl(["index", "."], in: tree)
        #expect(built.status == 0, "\(built.stderr)")
        return tree
    }

    /// Whether `trawl find` took its files from the index's listing.
    func isListed(_ tree: URL) throws -> Bool {
        try trawl(["find", "--stats", "-l", "needle", "."], in: tree).stderr.contains("files listed by the index")
    }

    func write(_ text: String, to url: URL, age: Bool = true) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
        if age { try checks.age(url, seconds: 1800) }
    }

    /// Sets the modification time of the tree's root and of every folder in it well in the past
    /// (their change time, also in an index's signature, still shows any change).
    func ageFolders(_ tree: URL) throws {
        try checks.age(tree, seconds: 1600)
        let entries = FileManager.default.enumerator(at: tree, includingPropertiesForKeys: [.isDirectoryKey])!
        for case let url as URL in entries where try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
            try checks.age(url, seconds: 1600)
        }
    }

    @Test func anUnchangedTreeIsListedAndEveryChangeAWalkWouldSeeIsNoticed() throws {
        let tree = try indexedTree()
        #expect(try isListed(tree))
        try checks.expectSameResults(in: tree, "fresh")

        // A file changed in place: still listed (its folder is unchanged); the file is searched.
        try write("let needle = 1 // Error\n", to: tree.appendingPathComponent("Sources/App/main.swift"))
        #expect(try isListed(tree))
        try checks.expectSameResults(in: tree, "changed in place")

        // A file saved by renaming a new one over it: the folder's names are the same.
        let server = tree.appendingPathComponent("Sources/Net/Server.swift")
        try write("struct Server { let needle: Error }\n", to: tree.appendingPathComponent("Sources/Net/.Server.swift.tmp"))
        #expect(rename(tree.appendingPathComponent("Sources/Net/.Server.swift.tmp").path, server.path) == 0)
        try checks.age(server, seconds: 1700)
        #expect(try isListed(tree))
        try checks.expectSameResults(in: tree, "renamed over")

        // An ignore file edited in place: what is walked changes, so the tree is walked.
        let gitignore = tree.appendingPathComponent(".gitignore")
        try write("vendor/*\n!vendor/keep.swift\n*.log\n", to: gitignore)
        try write("needle in the build output\n", to: tree.appendingPathComponent("build/output.txt"))
        #expect(try !isListed(tree))
        try checks.expectSameResults(in: tree, "ignore file edited")
        #expect(try trawl(["find", "-l", "needle", "."], in: tree).stdout.contains("build/output.txt"))
        let refreshed = try trawl(["index", "--stats", "."], in: tree)
        #expect(refreshed.stdout.contains("after a walk"), "\(refreshed.stdout)")
        #expect(try isListed(tree))
        try checks.expectSameResults(in: tree, "refreshed after the ignore file")

        // A new folder, a new ignore file in a folder, a deleted folder: each needs a walk.
        for (label, change) in [
            ("new folder", { try write("let needle = Error()\n", to: tree.appendingPathComponent("Sources/New/added.swift")) }),
            ("new ignore file", { try write("*.swift\n", to: tree.appendingPathComponent("Sources/Net/.ignore")) }),
            ("deleted folder", { try FileManager.default.removeItem(at: tree.appendingPathComponent("docs")) }),
        ] as [(String, () throws -> Void)] {
            try change()
            #expect(try !isListed(tree), "\(label)")
            try checks.expectSameResults(in: tree, label)
            // Folders changed within the last two seconds are recorded as racy, and the next run
            // would resolve them and write; aged, the runs below do not depend on the clock.
            try ageFolders(tree)
            let again = try trawl(["index", "--stats", "."], in: tree)
            #expect(again.status == 0 && again.stdout.contains("after a walk"), "\(label): \(again.stdout)")
            #expect(try isListed(tree), "\(label)")
            try checks.expectSameResults(in: tree, "\(label), refreshed")
        }
        let unchanged = try trawl(["index", "--stats", "."], in: tree)
        #expect(unchanged.stdout.contains("(0 read") && unchanged.stdout.contains("unchanged without a walk"), "\(unchanged.stdout)")
    }

    @Test func aMovedTreeIsWalkedAgainAndFarTimestampsAreHandled() throws {
        let tree = try indexedTree()
        // Ignore rules above the root match against its path: a moved tree is walked.
        let moved = tree.deletingLastPathComponent().appendingPathComponent("moved/deeper")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: tree, to: moved)
        #expect(try !isListed(moved))
        try checks.expectSameResults(in: moved, "moved")
        #expect(try trawl(["index", "--stats", "."], in: moved).stdout.contains("after a walk"))
        #expect(try isListed(moved))
        // Timestamps past 2262 do not fit in 64-bit nanoseconds: still compared, never a crash.
        let main = moved.appendingPathComponent("Sources/App/main.swift")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 10_500_000_000)], ofItemAtPath: main.path)
        let refreshed = try trawl(["index", "--stats", "."], in: moved)
        #expect(refreshed.status == 0 && refreshed.stdout.contains("(1 read"), "\(refreshed.stdout)\(refreshed.stderr)")
        try checks.expectSameResults(in: moved, "far timestamp")
    }

    @Test func refreshesAddSegmentsThenMergeThemAndResultsStayTheSame() throws {
        let tree = try indexedTree()
        let folder = tree.appendingPathComponent(".trawl")
        for round in 0..<9 {
            try write("let needle\(round) = \"Error \(round)\"\n", to: tree.appendingPathComponent("match/round\(round % 3).swift"), age: false)
            try checks.age(tree.appendingPathComponent("match/round\(round % 3).swift"), seconds: Double(1000 + round))
            let refreshed = try trawl(["index", "--stats", "."], in: tree)
            #expect(refreshed.status == 0, "\(refreshed.stderr)")
            #expect(refreshed.stdout.contains("(1 read"), "round \(round): \(refreshed.stdout)")
            let segments = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("postings-") }
            #expect(segments.count >= 1 && segments.count <= 6, "round \(round): \(segments)")
            #expect(try trawl(["find", "-l", "needle\(round)", "."], in: tree).stdout.contains("round\(round % 3).swift"))
        }
        try checks.expectSameResults(in: tree, "after nine refreshes")
    }

    /// A refresh reads a later segment's table only to merge it: damage found then rebuilds the
    /// index (before, segments would pile up, each refresh failing to merge).
    @Test func aDamagedSegmentFoundWhenMergingRebuildsTheIndex() throws {
        let tree = try indexedTree()
        let folder = tree.appendingPathComponent(".trawl")
        func change(_ round: Int) throws {
            try write("let needle\(round) = 1\n", to: tree.appendingPathComponent("match/round\(round).swift"), age: false)
            try checks.age(tree.appendingPathComponent("match/round\(round).swift"), seconds: Double(1000 + round))
        }
        var base = ""
        for round in 0..<4 { // a refresh merges once there are more than four segments
            if round == 0 {
                base = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("postings-") }!
            }
            try change(round)
            #expect(try trawl(["index", "."], in: tree).status == 0)
        }
        let later = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("postings-") && $0 != base }!
        let file = folder.appendingPathComponent(later)
        var bytes = try Data(contentsOf: file)
        bytes[40] ^= 0x5A // in its table
        try bytes.write(to: file)
        try change(4)
        let refreshed = try trawl(["index", "--stats", "."], in: tree)
        #expect(refreshed.status == 0 && refreshed.stderr.contains("building it again"), "\(refreshed.stderr)")
        #expect(refreshed.stdout.contains("built"), "\(refreshed.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("postings-") }.count == 1)
        try checks.expectSameResults(in: tree, "rebuilt after a damaged merge")
    }

    @Test func replaceGivesTheSameChangesWithTheIndex() throws {
        let tree = try indexedTree()
        try write("let needle = Error.self\n", to: tree.appendingPathComponent("Sources/App/main.swift"))
        for arguments in [["Error", "Failure"], ["-i", "rope", "ROPE"], ["(struct|class)\\s+(\\w+)", "$1 Renamed$2"]] {
            let with = try trawl(["replace"] + arguments + ["."], in: tree)
            let without = try trawl(["replace", "--no-index"] + arguments + ["."], in: tree)
            #expect(with.stdout == without.stdout && with.stderr == without.stderr && with.status == without.status, "\(arguments)")
        }
        let copy = tree.deletingLastPathComponent().appendingPathComponent("copy")
        try FileManager.default.copyItem(at: tree, to: copy)
        #expect(try trawl(["replace", "--write", "Error", "Failure", "."], in: tree).status == 0)
        #expect(try trawl(["replace", "--write", "--no-index", "Error", "Failure", "."], in: copy).status == 0)
        try FileManager.default.removeItem(at: copy.appendingPathComponent(".trawl"))
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".trawl"))
        #expect(try snapshotTree(tree) == snapshotTree(copy))
    }

    @Test func aKilledIndexRunLeavesAUsableIndex() throws {
        let tree = scratchURL("index-kill")
        defer { try? FileManager.default.removeItem(at: tree) }
        var random = SeededGenerator(seed: 0x1D3)
        for number in 0..<1500 {
            try write(String(decoding: random.matchText(pieces: 60), as: UTF8.self), to: tree.appendingPathComponent("d\(number % 20)/f\(number).txt"))
        }
        #expect(try trawl(["index", "."], in: tree).status == 0)
        var system = SystemRandomNumberGenerator()
        for round in 0..<6 {
            // Changes that make the next run rebuild (round 0), write a segment, or walk.
            for number in stride(from: round, to: 1500, by: round == 0 ? 2 : 97) {
                try write("round \(round) needle \(number)\n", to: tree.appendingPathComponent("d\(number % 20)/f\(number).txt"))
            }
            if round % 2 == 1 { try write("needle added\n", to: tree.appendingPathComponent("new\(round)/a.txt")) }
            let child = try Child.start(trawlBinary.path, ["index", "."], in: tree)
            usleep(UInt32.random(in: 1_000...150_000, using: &system))
            kill(child.pid, SIGKILL)
            _ = child.finish()
            for query in ["needle", "round \(round)", "zzzabsent", "[a-z]+ing\\b"] {
                let with = try trawl(["find", "-c", query, "."], in: tree)
                let without = try trawl(["find", "--no-index", "-c", query, "."], in: tree)
                #expect(with.stdout == without.stdout && with.status == without.status, "round \(round): \(query)")
                #expect(!with.stderr.contains("index"), "round \(round): \(with.stderr)")
            }
            let refreshed = try trawl(["index", "."], in: tree)
            #expect(refreshed.status == 0 && refreshed.stderr.isEmpty, "round \(round): \(refreshed.stderr)")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: tree.appendingPathComponent(".trawl").path).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty, "\(leftovers)")
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["TRAWL_CORPUS"] != nil, "set TRAWL_CORPUS to a tree (../shared/tools/make-corpus.sh) to compare on it"))
    func onTheCorpusTreeResultsAreTheSameWithTheIndex() throws {
        let corpus = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TRAWL_CORPUS"]!)
        let root = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("tree").path) ? corpus.appendingPathComponent("tree") : corpus
        let hadIndex = FileManager.default.fileExists(atPath: root.appendingPathComponent(".trawl").path)
        defer { if !hadIndex { try? FileManager.default.removeItem(at: root.appendingPathComponent(".trawl")) } }
        #expect(try trawl(["index", "."], in: root).status == 0)
        for query in [["EventLoopFuture"], ["zqxjkvbwabsent"], ["func\\s+\\w+Error\\("], ["-i", "eventloop"], ["-w", "self"]] {
            let with = try trawl(["find", "-l"] + query + ["."], in: root)
            let without = try trawl(["find", "--no-index", "-l"] + query + ["."], in: root)
            #expect(with.stdout == without.stdout && with.status == without.status, "\(query)")
        }
    }
}
