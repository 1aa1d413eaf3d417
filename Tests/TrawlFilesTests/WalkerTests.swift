import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles

@Suite struct WalkerTests {
    func walk(_ root: FilePath, _ configure: (inout WalkOptions) -> Void = { _ in }) -> Walker.Result {
        var options = WalkOptions()
        configure(&options)
        return Walker(options: options).walk([root])
    }

    func names(_ result: Walker.Result, under root: FilePath) -> [String] {
        let prefix = root.bytes.count + 1
        return result.files.map { PathText.escaped(Array($0.path.bytes.dropFirst(prefix))) }
    }

    @Test func namesThatAreNotUTF8AreWalkedAsBytes() throws {
        let root = FilePath(try temporaryFolder("names").path)
        let folder = root.appending(name: Array("dir-".utf8) + [0xFF])
        try makeFolder(folder)
        try writeFile(folder.appending(name: Array("file-".utf8) + [0xFE, 0x41]), Array("x\n".utf8))
        let result = walk(root)
        #expect(result.errors.isEmpty)
        #expect(result.files.map { $0.path.bytes } == [folder.bytes + [0x2F] + Array("file-".utf8) + [0xFE, 0x41]])
        #expect(names(result, under: root) == ["dir-\\xFF/file-\\xFEA"])
        #expect(throws: Never.self) { try FileContent.read(path: result.files[0].path, for: .rewrite).get() }
    }

    @Test func aTrailingSlashOnTheRootDoesNotDoubleTheSeparator() throws {
        let root = try temporaryFolder("slash")
        try Data("x\n".utf8).write(to: root.appendingPathComponent("a.txt"))
        let result = Walker(options: WalkOptions()).walk([FilePath(root.path + "/")])
        #expect(result.files.map { $0.path.string } == [root.path + "/a.txt"])
    }

    @Test func anIgnoreFileAboveTheRootAppliesOutsideARepository() throws {
        // t/.ignore says foo; searching t/a must skip t/a/foo (as ripgrep does), with no .git anywhere.
        let top = try temporaryFolder("ancestor")
        try FileManager.default.createDirectory(at: top.appendingPathComponent("a/foo"), withIntermediateDirectories: true)
        try Data("test\n".utf8).write(to: top.appendingPathComponent("a/foo/x"))
        try Data("test\n".utf8).write(to: top.appendingPathComponent("a/kept"))
        try Data("foo\n".utf8).write(to: top.appendingPathComponent(".ignore"))
        // A .gitignore above the root still needs a repository.
        try Data("kept\n".utf8).write(to: top.appendingPathComponent(".gitignore"))
        let root = FilePath(top.appendingPathComponent("a").path)
        #expect(names(walk(root), under: root) == ["kept"])
        #expect(names(walk(root) { $0.noIgnore = true }, under: root) == ["foo/x", "kept"])
    }

    @Test func aHiddenFileSelectedByANegationOrAGlobIsSearched() throws {
        let top = try temporaryFolder("hidden")
        try FileManager.default.createDirectory(at: top.appendingPathComponent(".git"), withIntermediateDirectories: true)
        for name in [".foo", ".bar", "plain"] { try Data("x\n".utf8).write(to: top.appendingPathComponent(name)) }
        try Data(".foo\n!.foo\n".utf8).write(to: top.appendingPathComponent(".gitignore"))
        let root = FilePath(top.path)
        #expect(names(walk(root), under: root) == [".foo", "plain"])
        #expect(names(walk(root) { $0.globs = [".b*"] }, under: root) == [".bar"])
        #expect(names(walk(root) { $0.globs = ["*.{txt,md}", "pla{in,ne}"] }, under: root) == ["plain"])
    }

    @Test func excludeGlobsKeepTheIgnoreFiles() throws {
        let top = try temporaryFolder("globs")
        try FileManager.default.createDirectory(at: top.appendingPathComponent(".git"), withIntermediateDirectories: true)
        for name in ["kept.txt", "ignored.txt", "Cargo.lock"] { try Data("x\n".utf8).write(to: top.appendingPathComponent(name)) }
        try Data("ignored.txt\n".utf8).write(to: top.appendingPathComponent(".gitignore"))
        let root = FilePath(top.path)
        // An exclude glob decides only for what it matches; the .gitignore still applies to the rest.
        #expect(names(walk(root) { $0.globs = ["!*.lock"] }, under: root) == ["kept.txt"])
        // An include glob decides for every file (and overrides the ignore files), as in ripgrep.
        #expect(names(walk(root) { $0.globs = ["*.txt"] }, under: root) == ["ignored.txt", "kept.txt"])
    }

    @Test func gitIgnoreFilesAboveTheRepositoryRootDoNotApply() throws {
        let top = try temporaryFolder("above")
        let repository = top.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("*\n".utf8).write(to: top.appendingPathComponent(".gitignore")) // a dotfiles repository's, say
        try Data("x\n".utf8).write(to: repository.appendingPathComponent("file.txt"))
        let root = FilePath(repository.path)
        #expect(names(walk(root), under: root) == ["file.txt"])
    }

    @Test func loopsAndBrokenLinksAreReportedWhenFollowingLinks() throws {
        let top = try temporaryFolder("links")
        try FileManager.default.createDirectory(at: top.appendingPathComponent("d"), withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: top.appendingPathComponent("d/file"))
        #expect(symlink("..", top.appendingPathComponent("d/up").path) == 0)
        #expect(symlink("missing", top.appendingPathComponent("dangling").path) == 0)
        #expect(symlink("self", top.appendingPathComponent("self").path) == 0)
        let root = FilePath(top.path)
        let followed = walk(root) { $0.followLinks = true }
        #expect(names(followed, under: root) == ["d/file"])
        #expect(followed.errors.count == 3, "\(followed.errors)")
        #expect(followed.errors.contains { $0.hasSuffix("dangling: broken symbolic link (No such file or directory)") })
        #expect(followed.errors.contains { $0.contains("self: symbolic link loop") })
        #expect(followed.errors.contains { $0.contains("d/up: file system loop found") })
        // Without -L links are not followed, and not reported (as in ripgrep).
        let plain = walk(root)
        #expect(names(plain, under: root) == ["d/file"])
        #expect(plain.errors.isEmpty)
    }

    @Test func theCallersFilterLeavesEntriesOut() throws {
        let top = try temporaryFolder("filter")
        for name in ["keep", "drop-me"] { try Data("x\n".utf8).write(to: top.appendingPathComponent(name)) }
        let root = FilePath(top.path)
        let result = walk(root) { $0.excludes = { _, name in name.starts(with: Array("drop".utf8)) } }
        #expect(names(result, under: root) == ["keep"])
    }
}
