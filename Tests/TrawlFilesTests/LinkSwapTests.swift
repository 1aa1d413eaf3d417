import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles
import TrawlMatch

/// A name a walk found as a regular file, swapped for a link (to a file outside the tree) before
/// it is read or written: the link is refused, never followed, and nothing outside changes.
@Suite struct LinkSwapTests {
    /// A tree `root/sub/r.txt` and a file outside it, both holding `needle`.
    func treeAndOutsideFile() throws -> (root: URL, outside: URL) {
        let top = try temporaryFolder("link-swap")
        let root = top.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("a needle\n".utf8).write(to: root.appendingPathComponent("sub/r.txt"))
        let outside = top.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("a needle\n".utf8).write(to: outside.appendingPathComponent("r.txt"))
        return (root, outside)
    }

    func walkedFile(in root: URL) throws -> WalkedFile {
        let files = Walker(options: WalkOptions()).walk([FilePath(root.path)]).files
        try #require(files.count == 1)
        #expect(files[0].anchor != nil)
        return files[0]
    }

    func replacement() throws -> FileReplacement {
        FileReplacement(matcher: try LiteralMatcher("needle"), template: ReplacementTemplate(literal: "pin"))
    }

    @Test func aFileSwappedForALinkAfterTheWalkIsNeitherReadNorWritten() throws {
        let (root, outside) = try treeAndOutsideFile()
        let file = try walkedFile(in: root)
        let inTree = root.appendingPathComponent("sub/r.txt")
        try FileManager.default.removeItem(at: inTree)
        try FileManager.default.createSymbolicLink(at: inTree, withDestinationURL: outside.appendingPathComponent("r.txt"))

        #expect(throws: FileSkip.notRegular(kind: "symbolic link")) { try FileContent.read(file, for: .rewrite).get() }
        guard case .skipped(.notRegular(kind: "symbolic link")) = try replacement().apply(to: file) else {
            Issue.record("the link was not refused")
            return
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("r.txt"), encoding: .utf8) == "a needle\n")
    }

    @Test func aFolderSwappedForALinkAfterTheWalkIsNotFollowed() throws {
        let (root, outside) = try treeAndOutsideFile()
        let file = try walkedFile(in: root)
        try FileManager.default.moveItem(at: root.appendingPathComponent("sub"), to: root.appendingPathComponent("moved"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("sub"), withDestinationURL: outside)

        #expect(throws: FileSkip.self) { try FileContent.read(file, for: .search(allowsMapping: true, allowsStreams: false)).get() }
        if case .replaced = try replacement().apply(to: file) { Issue.record("written through a link") }
        #expect(try String(contentsOf: outside.appendingPathComponent("r.txt"), encoding: .utf8) == "a needle\n")
    }

    @Test func aFileSwappedForALinkBetweenReadAndWriteIsNotWritten() throws {
        let (root, outside) = try treeAndOutsideFile()
        let file = try walkedFile(in: root)
        let content = try FileContent.read(file, for: .rewrite).get()
        // The same bytes, the same size: only the link itself tells them apart.
        let inTree = root.appendingPathComponent("sub/r.txt")
        try FileManager.default.removeItem(at: inTree)
        try FileManager.default.createSymbolicLink(at: inTree, withDestinationURL: outside.appendingPathComponent("r.txt"))

        #expect(throws: WriteFailure.notRegular(kind: "symbolic link")) {
            try AtomicFile.replace(file, expecting: content.snapshot, hash: content.hash!) { writer in try writer.write(Array("pin\n".utf8)) }
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("r.txt"), encoding: .utf8) == "a needle\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: inTree.path) == outside.appendingPathComponent("r.txt").path)
    }

    @Test func aWalkThatFollowsLinksStillReplacesTheirTargets() throws {
        let (root, outside) = try treeAndOutsideFile()
        let inTree = root.appendingPathComponent("sub/r.txt")
        try FileManager.default.removeItem(at: inTree)
        try FileManager.default.createSymbolicLink(at: inTree, withDestinationURL: outside.appendingPathComponent("r.txt"))
        var options = WalkOptions()
        options.followLinks = true
        let files = Walker(options: options).walk([FilePath(root.path)]).files
        try #require(files.count == 1)
        #expect(files[0].anchor == nil)
        guard case .replaced(count: 1, _) = try replacement().apply(to: files[0]) else {
            Issue.record("the link's target was not replaced")
            return
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("r.txt"), encoding: .utf8) == "a pin\n")
    }
}
