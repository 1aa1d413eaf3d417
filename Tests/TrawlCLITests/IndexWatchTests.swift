import Foundation
import Testing
import TrawlTestSupport

/// `trawl index --watch`: while it runs, a search takes the changed files from it instead of a
/// `stat` of every file, and still gives exactly the results of a search without the index, through
/// random edits, saves by rename, new, deleted and renamed files and folders, and ignore files
/// changed — checked right after each change, before the watcher's refresh.
@Suite(.serialized) struct IndexWatchTests {
    let checks = IndexCommandTests()
    let listing = IndexListingTests()

    /// A watcher started on `tree`, once it says searches can rely on it.
    func startWatcher(_ tree: URL, environment: [String: String] = [:], path: String = ".") throws -> Child {
        let child = try Child.start(trawlBinary.path, ["index", "--watch", path], in: tree, environment: environment)
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if let said = try? String(contentsOfFile: child.errorFile, encoding: .utf8), said.contains("watching") { return child }
            if kill(child.pid, 0) != 0 { break }
            usleep(10_000)
        }
        kill(child.pid, SIGKILL)
        let said = (try? String(contentsOfFile: child.errorFile, encoding: .utf8)) ?? ""
        _ = child.finish()
        throw WatchFailure.notReady(said)
    }

    enum WatchFailure: Error { case notReady(String) }

    /// Stops the watcher as Ctrl-C does; it exits 0.
    func stop(_ watcher: Child) {
        kill(watcher.pid, SIGINT)
        let status = watcher.wait(limit: 30)
        #expect(status == 0, "the watcher ended with \(String(describing: status))")
        watcher.discardScratchFiles(keepingOutput: false)
    }

    /// Whether a search used the watcher, after checking it gives what a search without the index
    /// gives.
    @discardableResult
    func expectSameResults(in tree: URL, _ comment: String) throws -> Bool {
        var usedWatcher = false
        for query in ["needle", "(struct|class)\\s+\\w+"] {
            let with = try trawl(["find", "--stats", "-l", query, "."], in: tree)
            let without = try trawl(["find", "--stats", "--no-index", "-l", query, "."], in: tree)
            #expect(with.stdout == without.stdout && with.status == without.status, "\(comment): \(query)\n\(with.stdout)\nwithout:\n\(without.stdout)")
            // The files the index rules out count as searched: the same totals as a walk's.
            #expect(checks.totals(with.stderr) == checks.totals(without.stderr), "\(comment): \(query)\n\(with.stderr)\nwithout:\n\(without.stderr)")
            // Files skipped as not UTF-8 are said to be, in the same words and order.
            #expect(checks.skipNotes(with.stderr) == checks.skipNotes(without.stderr), "\(comment): \(query)\n\(with.stderr)\nwithout:\n\(without.stderr)")
            usedWatcher = usedWatcher || with.stderr.contains("changes from its watcher")
        }
        // replace asks the watcher only what changed (its own walk filter rules out serving).
        let with = try trawl(["replace", "needle", "pin", "."], in: tree)
        let without = try trawl(["replace", "--no-index", "needle", "pin", "."], in: tree)
        #expect(with.stdout == without.stdout && with.status == without.status, "\(comment): replace\n\(with.stdout)\nwithout:\n\(without.stdout)")
        return usedWatcher
    }

    /// Waits until a search relies on the watcher again (its refresh after a change the listing
    /// cannot follow has landed).
    func waitUntilWatched(_ tree: URL) throws {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if try trawl(["find", "--stats", "-l", "needle", "."], in: tree).stderr.contains("changes from its watcher") { return }
            usleep(20_000)
        }
        Issue.record("the watcher was not relied on again within a minute")
    }

    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func searchesWithAWatcherEqualSearchesWithoutTheIndexThroughRandomChanges() throws {
        #if os(Linux)
        let tree = try listing.indexedTree()
        try checks.writeUndecodableFiles(in: tree.appendingPathComponent("Sources"), badByteAt: 30)
        let watcher = try startWatcher(tree)
        defer { stop(watcher) }
        var generator = SeededGenerator(seed: 0x5EED_CAFE)
        var fresh = 0, watchedAfterEdit = 0
        var created = 0
        func files() -> [URL] {
            (FileManager.default.enumerator(at: tree, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { !$0.path.contains("/.trawl") && !$0.hasDirectoryPath && $0.pathExtension == "swift" }
                .sorted { $0.path < $1.path }
        }
        func folders() -> [URL] {
            (FileManager.default.enumerator(at: tree.appendingPathComponent("Sources"), includingPropertiesForKeys: [.isDirectoryKey])?.allObjects as? [URL] ?? [])
                .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
                .sorted { $0.path < $1.path }
        }
        func text(_ needle: Bool) -> String {
            needle ? "struct Found\(generator.next() % 100) { let needle = \(generator.next() % 1000) }\n" : "let nothing = \(generator.next() % 1000)\n"
        }
        for step in 0..<36 {
            let all = files()
            guard !all.isEmpty else { break }
            let file = all[Int(generator.next() % UInt64(all.count))]
            let operation = generator.next() % 8
            // Edits the listing follows (the watcher names the files) come first, from a state
            // the watcher vouches for.
            if operation < 4 { try waitUntilWatched(tree) }
            let comment: String
            switch operation {
            case 0, 1:
                // Edited in place, needle in or out.
                try text(generator.next() % 2 == 0).write(to: file, atomically: false, encoding: .utf8)
                comment = "edited \(file.lastPathComponent)"
            case 2:
                // Saved by renaming a temporary file over it (a hidden name, gone at once).
                let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).tmp")
                try text(generator.next() % 2 == 0).write(to: temporary, atomically: false, encoding: .utf8)
                #expect(rename(temporary.path, file.path) == 0)
                comment = "saved over \(file.lastPathComponent)"
            case 3:
                try FileManager.default.removeItem(at: file)
                comment = "deleted \(file.lastPathComponent)"
            case 4:
                created += 1
                let new = file.deletingLastPathComponent().appendingPathComponent("New\(created).swift")
                try text(true).write(to: new, atomically: false, encoding: .utf8)
                comment = "created \(new.lastPathComponent)"
            case 5:
                created += 1
                #expect(rename(file.path, file.deletingLastPathComponent().appendingPathComponent("Renamed\(created).swift").path) == 0)
                comment = "renamed \(file.lastPathComponent)"
            case 6:
                let all = folders()
                if let folder = all.last, generator.next() % 2 == 0 {
                    created += 1
                    #expect(rename(folder.path, folder.deletingLastPathComponent().appendingPathComponent("Moved\(created)").path) == 0)
                    comment = "moved folder \(folder.lastPathComponent)"
                } else {
                    created += 1
                    let folder = tree.appendingPathComponent("Sources/Made\(created)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try text(true).write(to: folder.appendingPathComponent("Inside.swift"), atomically: false, encoding: .utf8)
                    comment = "made folder Made\(created)"
                }
            default:
                // What is walked changes: the index's listing can no longer stand in for a walk.
                let gitignore = tree.appendingPathComponent(".gitignore")
                let rules = ["vendor/*\n*.log\n", "vendor/*\n*.log\nNew*.swift\n", "*.log\n"]
                try rules[Int(generator.next() % UInt64(rules.count))].write(to: gitignore, atomically: false, encoding: .utf8)
                comment = "ignore rules changed"
            }
            let watched = try expectSameResults(in: tree, "step \(step): \(comment)")
            if operation < 4 {
                fresh += 1
                if watched { watchedAfterEdit += 1 }
            }
        }
        // Most edits of listed files are followed through the watcher (a refresh landing between
        // the change and the search can make a search check the files itself, which is correct).
        #expect(fresh > 0 && watchedAfterEdit * 2 >= fresh, "\(watchedAfterEdit) of \(fresh) searches after an edit used the watcher")
        #endif
    }

    /// A change made just before a search counts even when the watcher has not read its event
    /// yet (here each batch of events waits 150 ms): the search's question waits for the cookie
    /// the watcher made after it came.
    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func aChangeJustBeforeASearchCountsThoughItsEventIsReadLate() throws {
        #if os(Linux)
        let tree = try listing.indexedTree()
        let watcher = try startWatcher(tree, environment: ["TRAWL_WATCH_EVENT_DELAY_MS": "150"])
        defer { stop(watcher) }
        let file = tree.appendingPathComponent("Sources/App/main.swift")
        for round in 0..<4 {
            try waitUntilWatched(tree)
            let needle = round % 2 == 0
            try (needle ? "let needle = \(round)\n" : "let other = \(round)\n").write(to: file, atomically: false, encoding: .utf8)
            let found = try trawl(["find", "--stats", "-l", "needle", "."], in: tree)
            #expect(found.stdout.contains("main.swift") == needle, "round \(round): \(found.stdout)")
            try expectSameResults(in: tree, "round \(round)")
        }
        #endif
    }

    /// A watcher started through a link to the tree watches the tree (the link resolved once),
    /// and searches by either path use it.
    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func aWatcherStartedThroughALinkWatchesTheTree() throws {
        #if os(Linux)
        let tree = try listing.indexedTree()
        let link = tree.deletingLastPathComponent().appendingPathComponent("link-to-tree")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: tree)
        let watcher = try startWatcher(tree.deletingLastPathComponent(), path: link.path)
        defer { stop(watcher) }
        for root in [tree, link] {
            try waitUntilWatched(root)
            try expectSameResults(in: root, "through \(root.lastPathComponent)")
        }
        #endif
    }

    /// Ignore files whose changes no event of the tree's folders names — a `.gitignore` that is a
    /// link to a file outside the tree, `.git/info/exclude` (the watcher does not watch `.git`),
    /// and an `.ignore` hard-linked from outside and written there — are checked at each question:
    /// what they rule in or out counts at once.
    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func ignoreFilesOutOfTheWatchersSightCount() throws {
        #if os(Linux)
        let tree = try listing.indexedTree()
        let rules = tree.deletingLastPathComponent().appendingPathComponent("rules-outside")
        try listing.write("build/\n", to: rules)
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".gitignore"))
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent(".gitignore"), withDestinationURL: rules)
        let exclude = tree.appendingPathComponent(".git/info/exclude")
        try listing.write("", to: exclude)
        // An .ignore with a second name outside the tree, written through that name.
        let hardRules = tree.deletingLastPathComponent().appendingPathComponent("hard-rules-outside")
        try listing.write("", to: hardRules)
        #expect(link(hardRules.path, tree.appendingPathComponent("Sources/.ignore").path) == 0)
        for name in ["Linked", "Excluded", "Hard"] { try listing.write("let needle = 1\n", to: tree.appendingPathComponent("Sources/\(name).swift")) }
        let watcher = try startWatcher(tree)
        defer { stop(watcher) }
        var linkedIgnored = false, excluded = false, hardIgnored = false
        for round in 0..<6 {
            try waitUntilWatched(tree)
            // One of them changes at a time (a stale one alone makes the watcher say "unknown").
            switch round % 3 {
            case 0:
                linkedIgnored.toggle()
                try (linkedIgnored ? "build/\nLinked.swift\n" : "build/\n").write(to: rules, atomically: false, encoding: .utf8)
            case 1:
                excluded.toggle()
                try (excluded ? "Excluded.swift\n" : "").write(to: exclude, atomically: false, encoding: .utf8)
            default:
                hardIgnored.toggle()
                try (hardIgnored ? "Hard.swift\n" : "").write(to: hardRules, atomically: false, encoding: .utf8)
            }
            let found = try trawl(["find", "-l", "needle", "."], in: tree)
            #expect(found.stdout.contains("Linked.swift") == !linkedIgnored, "round \(round): \(found.stdout)")
            #expect(found.stdout.contains("Excluded.swift") == !excluded, "round \(round): \(found.stdout)")
            #expect(found.stdout.contains("Hard.swift") == !hardIgnored, "round \(round): \(found.stdout)")
            try expectSameResults(in: tree, "round \(round)")
        }
        #endif
    }

    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func aSecondWatcherOfTheSameTreeIsRefused() throws {
        #if os(Linux)
        let tree = try listing.indexedTree()
        let watcher = try startWatcher(tree)
        defer { stop(watcher) }
        // The same folder by another path.
        let second = try trawl(["index", "--watch", tree.path + "/Sources/.."], limit: 60)
        #expect(second.status == 2)
        #expect(second.stderr.contains("another trawl already watches this tree"), "\(second.stderr)")
        #endif
    }

    @Test func withoutAWatcherSearchesCheckTheFilesThemselves() throws {
        let tree = try listing.indexedTree()
        let run = try trawl(["find", "--stats", "-l", "needle", "."], in: tree)
        #expect(run.stderr.contains("files listed by the index"))
        #expect(!run.stderr.contains("watcher"), "\(run.stderr)")
    }
}
