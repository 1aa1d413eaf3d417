import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles

/// A program that opened a file before it was replaced writes to the version displaced: held
/// until the run settles, such a version is kept aside and reported instead of lost.
@Suite struct DisplacedFilesTests {
    func file(_ text: String) throws -> URL {
        let url = try temporaryFolder("displaced").appendingPathComponent("log.txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    func replace(_ url: URL, with text: String, holder: DisplacedFiles) throws {
        let content = try FileContent.read(path: FilePath(url.path), for: .rewrite).get()
        try AtomicFile.replace(path: FilePath(url.path), expecting: content.snapshot, hash: content.hash!,
                               policy: WritePolicy(displacedFiles: holder)) { writer in try writer.write(Array(text.utf8)) }
    }

    func folderNames(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
    }

    @Test func writesToTheDisplacedVersionAreKeptAsideAndReported() throws {
        let url = try file("line 1\n")
        let appender = open(url.path, O_WRONLY | O_APPEND)
        try #require(appender >= 0)
        defer { close(appender) }
        let holder = DisplacedFiles()
        try replace(url, with: "LINE 1\n", holder: holder)
        // After the switch, through the descriptor opened before it.
        #expect(write(appender, "line 2\n", 7) == 7)
        let problems = holder.settle()
        #expect(problems.count == 1 && problems[0].contains("kept at"), "\(problems)")
        let kept = try folderNames(url).filter { $0.hasPrefix("log.txt.trawl-conflict-") }
        try #require(kept.count == 1)
        #expect(try String(contentsOf: url.deletingLastPathComponent().appendingPathComponent(kept[0]), encoding: .utf8) == "line 1\nline 2\n")
        #expect(try String(contentsOf: url, encoding: .utf8) == "LINE 1\n")
    }

    @Test func untouchedDisplacedVersionsLeaveNothingBehind() throws {
        let url = try file("a\n")
        let holder = DisplacedFiles(capacity: 2)
        for round in 0..<5 { try replace(url, with: "b\(round)\n", holder: holder) }
        // Held without names: nothing is left in the folder, even meanwhile.
        #expect(try folderNames(url) == ["log.txt"])
        #expect(holder.settle().isEmpty)
        #expect(try folderNames(url) == ["log.txt"])
    }
}
