import Foundation
import SystemPackage
import Testing
@testable import TrawlIndex
import TrawlFiles
import TrawlNGram

/// A tree that comes with its own `.trawl/` (cloned, unpacked, planted), or whose index is damaged
/// in ways its checksums do not show: trawl never writes outside the tree, never follows a link
/// there, never hangs or allocates by what it reads, and searches give the walk's answers.
@Suite struct HostileIndexTests {
    /// A tree `top/t` (a git repository, files aged) and a file `top/outside.txt`, both holding TOKEN.
    func treeAndOutside() throws -> (top: URL, tree: URL, outside: URL) {
        let top = try temporaryFolder("hostile-index")
        let tree = top.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data("alpha beta TOKEN=1\n".utf8).write(to: tree.appendingPathComponent("a.txt"))
        try Data("alpha gamma\n".utf8).write(to: tree.appendingPathComponent("src/b.txt"))
        try Data("beta only\n".utf8).write(to: tree.appendingPathComponent("src/c.txt"))
        let outside = top.appendingPathComponent("outside.txt")
        try Data("alpha beta TOKEN=outside\n".utf8).write(to: outside)
        for path in ["a.txt", "src/b.txt", "src/c.txt", "src", "."] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: tree.appendingPathComponent(path).path)
        }
        return (top, tree, outside)
    }

    /// Searches with the index give what searches without it give, in several modes.
    func expectWalkAnswers(in tree: URL, _ comment: String, limit: Double = 60) throws {
        for arguments in [["-l", "alpha"], ["-c", "beta"], ["TOKEN"], ["-l", "alpha beta"]] {
            let with = try trawl(["find"] + arguments + ["."], in: tree, limit: limit)
            let without = try trawl(["find", "--no-index"] + arguments + ["."], in: tree, limit: limit)
            #expect(with.stdout == without.stdout && with.status == without.status, "\(comment) \(arguments): \(with.stderr)")
        }
    }

    func storedManifest(_ tree: URL) throws -> TreeManifest {
        let bytes = try [UInt8](Data(contentsOf: tree.appendingPathComponent(".trawl/index")))
        return try TreeIndexFormat.decodeManifest(bytes, key: try UserKey.user.get())
    }

    /// The repro: the listing rewritten with no folders and no watched paths and a file
    /// `../outside.txt`; made under another key (as anyone can), and under this user's own key
    /// (as only a bug could): either way it is not trusted, and nothing outside is written.
    @Test func aShippedIndexNeverRedirectsSearchesOrWrites() throws {
        let (top, tree, outside) = try treeAndOutside()
        #expect(try trawl(["index", "t"], in: top).status == 0)
        var manifest = try storedManifest(tree)
        manifest.listing.directories = []
        manifest.listing.watched = []
        manifest.listing.files.append(TreeListing.File(path: Array("../outside.txt".utf8), number: nil, signature: FileSignature.of(FilePath(outside.path))!))
        for key in [UserKey.random(), try UserKey.user.get()] {
            try Data(TreeIndexFormat.encode(manifest, key: key)).write(to: tree.appendingPathComponent(".trawl/index"))
            let found = try trawl(["find", "TOKEN", "t"], in: top)
            #expect(!found.stdout.contains("outside"), "\(found.stdout)")
            #expect(found.stderr.contains("searching without it"), "\(found.stderr)")
            let replaced = try trawl(["replace", "--write", "TOKEN=\\S+", "X", "t"], in: top)
            #expect(replaced.status == 0)
            #expect(try String(contentsOf: outside, encoding: .utf8) == "alpha beta TOKEN=outside\n")
            #expect(try String(contentsOf: tree.appendingPathComponent("a.txt"), encoding: .utf8) == "alpha beta X\n")
            try Data("alpha beta TOKEN=1\n".utf8).write(to: tree.appendingPathComponent("a.txt"))
        }
        // `trawl index` does not trust it either: it builds the index again, from a walk.
        let rebuilt = try trawl(["index", "t"], in: top)
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("building it again"), "\(rebuilt.stderr)")
        #expect(try storedManifest(tree).listing.files.map { String(decoding: $0.path, as: UTF8.self) } == ["a.txt", "src/b.txt", "src/c.txt"])
        try expectWalkAnswers(in: tree, "rebuilt")
    }

    /// An index built by another user (another key) is searched around, and rebuilt by `trawl index`.
    @Test func anIndexBuiltUnderAnotherKeyIsNotUsed() throws {
        let (_, tree, _) = try treeAndOutside()
        let elsewhere = try temporaryFolder("other-user-state")
        #expect(try trawl(["index", "."], in: tree, environment: ["XDG_STATE_HOME": elsewhere.path]).status == 0)
        let found = try trawl(["find", "-l", "alpha", "."], in: tree)
        #expect(found.stderr.contains("did not build"), "\(found.stderr)")
        try expectWalkAnswers(in: tree, "foreign")
        #expect(try trawl(["index", "."], in: tree).stderr.contains("building it again"))
        #expect(try trawl(["find", "-l", "alpha", "."], in: tree).stderr.isEmpty)
    }

    /// `.trawl` a link (to `.git`, or out of the tree), or a dangling `lock` link: refused with
    /// exit 2, nothing written through it; searches walk.
    @Test func linksInTheIndexFolderAreRefusedNeverFollowed() throws {
        let (top, tree, _) = try treeAndOutside()
        let gitIndex = tree.appendingPathComponent(".git/index")
        try Data("DIRC staged state\n".utf8).write(to: gitIndex)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent(".trawl").path, withDestinationPath: ".git")
        for command in [["index", "."], ["index", "--rebuild", "."]] {
            let run = try trawl(command, in: tree)
            #expect(run.status == 2 && run.stderr.contains("symbolic link") && run.stderr.contains("refused"), "\(run.stderr)")
        }
        #expect(try String(contentsOf: gitIndex, encoding: .utf8) == "DIRC staged state\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.appendingPathComponent(".git").path) == ["index"])
        try expectWalkAnswers(in: tree, ".trawl -> .git")
        #expect(try trawl(["replace", "--write", "gamma", "delta", "."], in: tree).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.appendingPathComponent(".git").path) == ["index"])

        // Out of the tree: that folder's files are neither replaced nor deleted.
        let other = top.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("keep\n".utf8).write(to: other.appendingPathComponent("index"))
        try Data("keep\n".utf8).write(to: other.appendingPathComponent("postings-0123"))
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".trawl"))
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent(".trawl").path, withDestinationPath: other.path)
        #expect(try trawl(["index", "."], in: tree).status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).sorted() == ["index", "postings-0123"])
        #expect(try String(contentsOf: other.appendingPathComponent("index"), encoding: .utf8) == "keep\n")

        // A dangling lock link: its target is never created.
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".trawl"))
        try FileManager.default.createDirectory(at: tree.appendingPathComponent(".trawl"), withIntermediateDirectories: true)
        let target = top.appendingPathComponent("created-by-trawl")
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent(".trawl/lock").path, withDestinationPath: target.path)
        let locked = try trawl(["index", "."], in: tree)
        #expect(locked.status == 2 && locked.stderr.contains("lock"), "\(locked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// A FIFO as the manifest, as a segment, or as the lock: nothing blocks; `index` refuses it.
    @Test func fifosInTheIndexFolderNeverHang() throws {
        let (_, tree, _) = try treeAndOutside()
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let folder = tree.appendingPathComponent(".trawl")
        let segment = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("postings-") }!
        for name in ["index", segment, "lock"] {
            let saved = try Data(contentsOf: folder.appendingPathComponent(name))
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try #require(mkfifo(folder.appendingPathComponent(name).path, 0o644) == 0)
            try expectWalkAnswers(in: tree, "FIFO \(name)", limit: 20)
            #expect(try trawl(["replace", "--write", "zzz", "y", "."], in: tree, limit: 20).status == 1)
            let indexed = try trawl(["index", "."], in: tree, limit: 20)
            #expect(indexed.status == 2 && indexed.stderr.contains("FIFO"), "\(name): \(indexed.stderr)")
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try saved.write(to: folder.appendingPathComponent(name))
        }
    }

    /// A manifest grown to 100 GB (sparse) is refused from its header; a rebuild replaces it.
    @Test func aHugeSparseManifestIsRefusedWithoutReadingIt() throws {
        let (_, tree, _) = try treeAndOutside()
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let manifest = tree.appendingPathComponent(".trawl/index")
        try #require(truncate(manifest.path, 100 << 30) == 0)
        try expectWalkAnswers(in: tree, "100 GB manifest", limit: 20)
        let rebuilt = try trawl(["index", "."], in: tree, limit: 20)
        #expect(rebuilt.status == 0 && rebuilt.stderr.contains("building it again"), "\(rebuilt.stderr)")
        try expectWalkAnswers(in: tree, "rebuilt")
    }

    /// A posting bumped to the index's next file number (every checksum made again): reported
    /// by the search that reads it, and still reported after a refresh gives that number to a
    /// new file, instead of a file silently missed.
    @Test func aPostingPastItsSegmentsLimitStaysDamageAfterARefresh() throws {
        let (_, tree, _) = try treeAndOutside()
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let key = try UserKey.user.get()
        var manifest = try storedManifest(tree)
        let folder = tree.appendingPathComponent(".trawl")
        let reference = manifest.segments[0]
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(reference.name)))
        let stored = try StoredTreeIndex(manifest: TreeIndexFormat.encode(manifest, key: key), key: key) { _ throws(TreeIndexFormat.Error) in
            { offset, count throws(TreeIndexFormat.Error) in Array(bytes[offset..<(offset + count)]) }
        }
        // a.txt (number 0) moved to the next number in every list: the postings stay ascending.
        var postings = NGramIndex()
        let first = manifest.listing.files.first { $0.path == Array("a.txt".utf8) }!.number!
        for file in try stored.fileKeys(ofSegments: [0], isLive: { _ in true }) {
            postings.add(file.keys.map { Trigram(key: $0) }, to: file.number == first ? manifest.nextNumber : file.number)
        }
        let altered = TreeIndexFormat.encodeSegment(postings)
        try Data(altered).write(to: folder.appendingPathComponent(reference.name))
        manifest.segments[0] = TreeManifest.Segment(name: reference.name, size: altered.count, headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: altered),
                                                    numberLimit: reference.numberLimit)
        try Data(TreeIndexFormat.encode(manifest, key: key)).write(to: folder.appendingPathComponent("index"))
        let found = try trawl(["find", "-l", "alpha beta", "."], in: tree)
        #expect(found.stderr.contains("corrupt index"), "\(found.stderr)")
        try expectWalkAnswers(in: tree, "bumped")

        // A new file takes the next number in a refresh: the bumped posting is still damage.
        try Data("nothing here\n".utf8).write(to: tree.appendingPathComponent("src/d.txt"))
        #expect(try trawl(["index", "."], in: tree).status == 0)
        let again = try trawl(["find", "-l", "alpha beta", "."], in: tree)
        #expect(again.stdout.contains("a.txt") && again.stderr.contains("corrupt index"), "\(again.stdout) \(again.stderr)")
        try expectWalkAnswers(in: tree, "refreshed")
    }
}

/// The stored catalog of a tree trawl did not make: a FIFO is refused without hanging, a `.trawl`
/// that links out of the tree is never written through.
@Suite struct HostileCatalogCommandTests {
    @Test func aFIFOCatalogAndALinkedIndexFolderAreRefused() throws {
        let top = try temporaryFolder("hostile-catalog-cli")
        let tree = top.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        let items = fixturesDirectory.appendingPathComponent("catalog/packages.jsonl")
        #expect(try trawl(["catalog", "build", items.path], in: tree).status == 0)
        let file = tree.appendingPathComponent(".trawl/catalog/catalog")
        try FileManager.default.removeItem(at: file)
        try #require(mkfifo(file.path, 0o644) == 0)
        let search = try trawl(["catalog", "search", "python"], in: tree, limit: 20)
        #expect(search.status == 2 && search.stderr.contains("not a regular file"), "\(search.status) \(search.stderr)")

        // `.trawl` a link out of the tree: the catalog is not built through it.
        try FileManager.default.removeItem(at: tree.appendingPathComponent(".trawl"))
        let outside = top.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent(".trawl"), withDestinationURL: outside)
        let build = try trawl(["catalog", "build", items.path], in: tree, limit: 60)
        #expect(build.status == 2, "\(build.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }
}
