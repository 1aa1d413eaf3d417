import Foundation
import Testing
@testable import TrawlCLI

@Suite struct AtomicFileTests {
    func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-atomic-\(UUID().uuidString).txt")
        try Data(contents.utf8).write(to: url)
        return url
    }

    func load(_ url: URL) throws -> FileContent {
        guard case .success(let content) = FileContent.read(path: url.path) else { throw CancellationError() }
        return content
    }

    @Test func aFileChangedSinceItWasReadIsNotOverwritten() throws {
        let url = try temporaryFile("original\n")
        let content = try load(url)
        let hash = content.text.withBytes(contentHash)
        // Another program saves the file (same size, so only the time or the hash can tell).
        try Data("edited!!\n".utf8).write(to: url)
        #expect(throws: WriteFailure.self) {
            try AtomicFile.replace(path: url.path, with: Array("replaced\n".utf8), snapshot: content.snapshot, hash: hash)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "edited!!\n")
    }

    @Test func aSameSizeEditWithTheSameTimeIsCaughtByTheHash() throws {
        let url = try temporaryFile("original\n")
        let content = try load(url)
        let hash = content.text.withBytes(contentHash)
        try Data("ORIGINAL\n".utf8).write(to: url)
        // Put the modification time back, as a careless tool might.
        let seconds = content.snapshot.modificationSeconds, nanoseconds = content.snapshot.modificationNanoseconds
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        #expect(throws: WriteFailure.self) {
            try AtomicFile.replace(path: url.path, with: Array("replaced\n".utf8), snapshot: content.snapshot, hash: hash)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "ORIGINAL\n")
    }

    @Test func anUnchangedFileIsReplacedWholeWithItsModeKept() throws {
        let url = try temporaryFile("original\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let content = try load(url)
        try AtomicFile.replace(path: url.path, with: Array("replaced\n".utf8), snapshot: content.snapshot,
                               hash: content.text.withBytes(contentHash))
        #expect(try String(contentsOf: url, encoding: .utf8) == "replaced\n")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".trawl-\(getpid())-") }
        #expect(leftovers.isEmpty)
    }
}
