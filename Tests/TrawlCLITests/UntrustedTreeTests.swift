import Foundation
import Testing

/// A tree trawl did not make, or one another process changes during a run: nothing outside the
/// tree is ever written, nothing hangs, and what cannot be searched is said.
@Suite struct UntrustedTreeTests {
    /// A renamer flips `tree/r.txt` between a regular file and a link to a file outside the tree
    /// while `replace --write` runs, over and over: the outside file never changes.
    @Test func aLinkSwappedInDuringReplaceNeverRedirectsTheWrite() throws {
        let top = try temporaryFolder("link-race")
        let tree = top.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        let outside = top.appendingPathComponent("outside.txt")
        try Data("needle outside\n".utf8).write(to: outside)
        let file = tree.appendingPathComponent("r.txt"), regular = top.appendingPathComponent("regular.txt"), link = top.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)

        let stop = StopFlag()
        let renamer = Thread {
            // Bounded: it stops when told, or after a million flips at most.
            var flips = 0
            while !stop.isSet && flips < 1_000_000 {
                try? Data("needle inside\n".utf8).write(to: regular)
                _ = rename(regular.path, file.path)
                _ = symlink(outside.path, link.path)
                _ = rename(link.path, file.path)
                flips += 1
            }
        }
        renamer.start()
        defer { stop.set() }
        for _ in 0..<40 {
            _ = try trawl(["replace", "--write", "--no-index", "needle", "pin", "tree"], in: top, limit: 30)
            #expect(try String(contentsOf: outside, encoding: .utf8) == "needle outside\n")
        }
        stop.set()
    }

    /// Folders below a path longer than the system's limit: each is reported, never skipped in silence.
    @Test func pathsTooLongForTheSystemAreReported() throws {
        let top = try temporaryFolder("long-paths")
        try Data("needle\n".utf8).write(to: top.appendingPathComponent("short.txt"))
        // 21 folders of 200-letter names, made one below the other through descriptors.
        let name = String(repeating: "d", count: 200)
        var folder = open(top.path, O_RDONLY | O_DIRECTORY)
        try #require(folder >= 0)
        for _ in 0..<21 {
            try #require(mkdirat(folder, name, 0o755) == 0)
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
            try #require(folder >= 0)
        }
        let deep = openat(folder, "deep.txt", O_CREAT | O_WRONLY, 0o644)
        _ = write(deep, "needle\n", 7)
        close(deep)
        close(folder)

        let run = try trawl(["find", "-l", "--no-index", "needle", "."], in: top)
        #expect(run.stdout.contains("short.txt"))
        #expect(run.stderr.contains("File name too long"), "\(run.stderr)")
        #expect(run.status == 2)
    }
}

/// A flag one thread sets and another polls.
final class StopFlag: @unchecked Sendable { // guarded by `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Files named like Trawl's temporaries but not made by it are the user's: never deleted.
@Suite struct TemporaryLookAlikeTests {
    @Test func filesNamedLikeTemporariesAreNeverDeleted() throws {
        let tree = try temporaryFolder("look-alikes")
        let names = [".trawl-99999-notes.tmp", ".trawl-99999-3.tmp", ".trawl-99999-3-0123456789abcdef.tmp", ".trawl-1-2-3.tmp"]
        for name in names { try Data("notes\n".utf8).write(to: tree.appendingPathComponent(name)) }
        try Data("zzz\n".utf8).write(to: tree.appendingPathComponent("a.txt"))
        let run = try trawl(["replace", "--write", "--hidden", "zzz", "y", "."], in: tree)
        #expect(run.status == 0, "\(run.stderr)")
        for name in names {
            #expect(try String(contentsOf: tree.appendingPathComponent(name), encoding: .utf8) == "notes\n", "\(name)")
        }
        // Not Trawl's, so searched like any hidden file.
        #expect(try trawl(["find", "--hidden", "-l", "notes", "."], in: tree).stdout.contains(".trawl-99999-notes.tmp"))
    }
}

/// What a rewrite cannot keep is named exactly: run as `nobody` on a file of group root, the
/// group is not kept, the owner is.
@Suite struct OwnershipNoteTests {
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "needs root and setpriv to run trawl as another user"))
    func onlyWhatWasNotKeptIsNamed() throws {
        let tree = try temporaryFolder("ownership")
        let file = tree.appendingPathComponent("a.txt")
        try Data("zzz\n".utf8).write(to: file)
        #expect(chown(tree.path, 65534, 65534) == 0 && chmod(tree.path, 0o777) == 0)
        #expect(chown(file.path, 65534, 0) == 0 && chmod(file.path, 0o666) == 0)
        let run = try Child.start("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", trawlBinary.path,
                                                        "replace", "--write", "--no-index", "zzz", "y", "a.txt"], in: tree).finish(limit: 30)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("group 0 could not be kept (now 65534)"), "\(run.stderr)")
        #expect(!run.stderr.contains("owner"), "\(run.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "y\n")
    }
}

/// Hostile patterns: an error with PCRE2's message and exit 2, never a crash.
@Suite struct HostilePatternTests {
    @Test func parenthesesNestedTenThousandDeepAreAnError() throws {
        let pattern = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        let run = try trawl(["find", "-c", pattern, "/dev/null"], limit: 30)
        #expect(run.status == 2 && run.stderr.contains("too deeply nested"), "\(run.status): \(run.stderr.prefix(300))")
        let replaced = try trawl(["replace", pattern, "x", "/dev/null"], limit: 30)
        #expect(replaced.status == 2, "\(replaced.stderr.prefix(300))")
    }

    /// Globs whose alternatives expanded exponentially (`-g`, and the same in a tree's ignore
    /// files): answered under a deadline, with the walk's usual answer.
    @Test func globsOfManyAlternativesDoNotHang() throws {
        let tree = try temporaryFolder("hostile-globs")
        try Data("needle\n".utf8).write(to: tree.appendingPathComponent("abcdabcdabcdabcd"))
        try Data("needle\n".utf8).write(to: tree.appendingPathComponent("other.txt"))
        let sixteen = String(repeating: "{a,b,c,d}", count: 16)
        let run = try trawl(["find", "-l", "-g", sixteen, "needle", "."], in: tree, limit: 30)
        #expect(run.status == 0 && run.stdout == "./abcdabcdabcdabcd\n", "\(run.status) \(run.stdout) \(run.stderr)")
        try Data((String(repeating: "*{a,b}", count: 24) + "\n").utf8).write(to: tree.appendingPathComponent(".ignore"))
        let ignored = try trawl(["find", "-l", "needle", "."], in: tree, limit: 30)
        #expect(ignored.status == 0 && ignored.stdout.contains("other.txt"), "\(ignored.stdout) \(ignored.stderr)")
    }
}
