import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles
#if os(Linux)
import CTrawlSystem // setxattr, getxattr
#endif

@Suite struct AtomicFileTests {
    /// A file alone in a new folder (so that leftovers of other tests running meanwhile do not count).
    func temporaryFile(_ contents: String) throws -> URL {
        let folder = scratchURL("atomic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("file.txt")
        try Data(contents.utf8).write(to: url)
        return url
    }

    func load(_ url: URL) throws -> FileContent {
        try FileContent.read(path: FilePath(url.path), for: .rewrite).get()
    }

    func replace(_ url: URL, _ content: FileContent, with text: String, policy: WritePolicy = WritePolicy()) throws {
        try AtomicFile.replace(path: FilePath(url.path), expecting: content.snapshot, hash: content.hash!, policy: policy) { writer in
            try writer.write(Array(text.utf8))
        }
    }

    func leftovers(beside url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".trawl-") }
    }

    @Test func aFileChangedSinceItWasReadIsNotOverwritten() throws {
        let url = try temporaryFile("original\n")
        let content = try load(url)
        // Another program saves the file (same size, so only the time or the hash can tell).
        try Data("edited!!\n".utf8).write(to: url)
        #expect(throws: WriteFailure.changedSinceRead) { try replace(url, content, with: "replaced\n") }
        #expect(try String(contentsOf: url, encoding: .utf8) == "edited!!\n")
    }

    @Test func aSameSizeEditWithTheSameTimeIsCaughtByTheHash() throws {
        let url = try temporaryFile("original\n")
        let content = try load(url)
        try Data("ORIGINAL\n".utf8).write(to: url)
        // Put the modification time back, as a careless tool might.
        let seconds = content.snapshot.modificationSeconds, nanoseconds = content.snapshot.modificationNanoseconds
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        #expect(throws: WriteFailure.changedSinceRead) { try replace(url, content, with: "replaced\n") }
        #expect(try String(contentsOf: url, encoding: .utf8) == "ORIGINAL\n")
        #expect(try leftovers(beside: url).isEmpty)
    }

    @Test func anUnchangedFileIsReplacedWholeWithItsModeKept() throws {
        let url = try temporaryFile("original\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let content = try load(url)
        try replace(url, content, with: "replaced\n")
        #expect(try String(contentsOf: url, encoding: .utf8) == "replaced\n")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try leftovers(beside: url).isEmpty)
    }

    /// Sets extended attribute `name` of the file at `path`; 0 or -1 (errno).
    static func setAttribute(_ path: String, _ name: String, _ value: [UInt8]) -> Int32 {
        #if canImport(Darwin)
        value.withUnsafeBytes { setxattr(path, name, $0.baseAddress, value.count, 0, 0) }
        #else
        value.withUnsafeBytes { setxattr(path, name, $0.baseAddress, value.count, 0) }
        #endif
    }

    /// Extended attribute `name` of the file at `path`, or nil.
    static func attribute(_ path: String, _ name: String) -> [UInt8]? {
        var value = [UInt8](repeating: 0, count: 8192)
        #if canImport(Darwin)
        let count = value.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count, 0, 0) }
        #else
        let count = value.withUnsafeMutableBytes { getxattr(path, name, $0.baseAddress, $0.count) }
        #endif
        return count < 0 ? nil : Array(value[0..<count])
    }

    /// Whether the scratch folder's file system takes user attributes (tmpfs before Linux 6.6
    /// does not).
    static let userAttributesWork: Bool = {
        let url = scratchURL("xattr-probe")
        guard (try? Data().write(to: url)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: url) }
        return setAttribute(url.path, "user.trawl-probe", [1]) == 0
    }()

    /// Extended attributes (here many, one long and one empty, past the first guess of the
    /// list's size) are given to the new file.
    @Test(.enabled(if: userAttributesWork, "the scratch folder's file system takes no user extended attributes"))
    func extendedAttributesAreKept() throws {
        let url = try temporaryFile("original\n")
        // (ext4 holds at most a block of them per file.)
        var attributes = (0..<24).map { ("user.trawl-\(String(repeating: "n", count: 36))-\($0)", Array("value \($0)".utf8)) }
        attributes.append(("user.long", Array(repeating: 0xAB, count: 1200)))
        attributes.append(("user.empty", []))
        for (name, value) in attributes { #expect(Self.setAttribute(url.path, name, value) == 0, "\(name): errno \(errno)") }
        let content = try load(url)
        let notes = try AtomicFile.replace(path: FilePath(url.path), expecting: content.snapshot, hash: content.hash!) { writer in
            try writer.write(Array("replaced\n".utf8))
        }
        #expect(notes.isEmpty, "\(notes)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "replaced\n")
        for (name, value) in attributes { #expect(Self.attribute(url.path, name) == value, "\(name)") }
    }

    @Test func aModeChangedSinceTheReadIsKept() throws {
        let url = try temporaryFile("original\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let content = try load(url)
        // chmod changes no modification time: the write goes ahead, with the mode as it is now.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        try replace(url, content, with: "replaced\n")
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o640)
    }

    @Test func aFileWithSeveralHardLinksIsLeftAloneUnlessAllowed() throws {
        let url = try temporaryFile("original\n")
        let link = url.deletingLastPathComponent().appendingPathComponent("trawl-link-\(UUID().uuidString)")
        #expect(Foundation.link(url.path, link.path) == 0)
        defer { unlink(link.path) }
        let content = try load(url)
        #expect(throws: WriteFailure.hardLinked(count: 2)) { try replace(url, content, with: "replaced\n") }
        #expect(try String(contentsOf: link, encoding: .utf8) == "original\n")
        try replace(url, content, with: "replaced\n", policy: WritePolicy(breaksHardLinks: true))
        #expect(try String(contentsOf: url, encoding: .utf8) == "replaced\n")
        #expect(try String(contentsOf: link, encoding: .utf8) == "original\n", "the other name keeps the old text")
    }

    @Test(.enabled(if: getuid() == 0, "changing a file's owner needs root"))
    func ownerAndGroupAreKept() throws {
        let url = try temporaryFile("original\n")
        #expect(chown(url.path, 1234, 5678) == 0)
        let content = try load(url)
        try replace(url, content, with: "replaced\n")
        var status = stat()
        #expect(stat(url.path, &status) == 0)
        #expect(status.st_uid == 1234 && status.st_gid == 5678)
    }

    @Test func onlyRegularFilesAreRead_forRewriting() throws {
        let fifo = scratchURL("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        defer { unlink(fifo.path) }
        // No writer: a blocking open would hang here.
        let result = FileContent.read(path: FilePath(fifo.path), for: .rewrite)
        #expect(result.failure == .notRegular(kind: "FIFO"))
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFileReplacedByAFIFOIsNotWritten() throws {
        let url = try temporaryFile("original\n")
        let content = try load(url)
        unlink(url.path)
        #expect(mkfifo(url.path, 0o644) == 0)
        defer { unlink(url.path) }
        #expect(throws: WriteFailure.notRegular(kind: "FIFO")) { try replace(url, content, with: "replaced\n") }
    }

    /// Writers race over one file: each reads it, appends its own token, and writes it back. A
    /// write that reports success must never be lost, so the file ends up holding exactly the
    /// tokens of the successful writes (a lost update drops one).
    @Test func concurrentWritersNeverLoseASuccessfulWrite() async throws {
        for round in 0..<20 {
            let url = try temporaryFile("start\n")
            let path = FilePath(url.path)
            let successes = await withTaskGroup(of: [String].self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        var mine: [String] = []
                        for attempt in 0..<25 {
                            guard case .success(let content) = FileContent.read(path: path, for: .rewrite) else { continue }
                            let token = "r\(round)w\(writer)a\(attempt)\n"
                            let old = content.text.withBytes { Array($0) }
                            do {
                                try AtomicFile.replace(path: path, expecting: content.snapshot, hash: content.hash!) { writer in
                                    try writer.write(old + Array(token.utf8))
                                }
                                mine.append(token)
                            } catch {
                                #expect(error as? WriteFailure == .changedSinceRead, "\(error)")
                            }
                        }
                        return mine
                    }
                }
                var all: [String] = []
                for await tokens in group { all += tokens }
                return all
            }
            let final = try String(contentsOf: url, encoding: .utf8)
            let written = final.split(separator: "\n").dropFirst().map { String($0) + "\n" }
            #expect(Set(written) == Set(successes), "round \(round): lost \(Set(successes).subtracting(written).count) successful writes")
            #expect(written.count == successes.count)
            #expect(try leftovers(beside: url).isEmpty)
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// Another program appends to the file by its name just before a rewrite puts its new file in
    /// place, and again just after: the first append is caught (the other version is put back),
    /// and the second, which landed in the new file while it was in place, is kept beside the file
    /// rather than removed with it.
    @Test func anAppendToTheNewFileWhileInPlaceIsKept() throws {
        let url = try temporaryFile("first\n")
        let path = FilePath(url.path)
        let content = try load(url)
        @Sendable func append(_ line: String, to file: FilePath) {
            let descriptor = file.withPlatformString { open($0, O_WRONLY | O_APPEND | O_CLOEXEC) }
            _ = Array(line.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        AtomicFile.afterExchange.withLock { hook in
            hook = { target, swappedOut in
                guard target == path else { return } // another test's file
                append("before\n", to: swappedOut) // what was in place: written before the switch
                append("after\n", to: target) // the new file, by the name it now has
            }
        }
        defer { AtomicFile.afterExchange.withLock { $0 = nil } }
        #expect(throws: WriteFailure.self) { try replace(url, content, with: "first\nrewritten\n") }
        #expect(try String(contentsOf: url, encoding: .utf8) == "first\nbefore\n")
        let kept = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).filter { $0.contains(".trawl-conflict-") }
        #expect(kept.count == 1)
        let keptText = try kept.map { try String(contentsOf: url.deletingLastPathComponent().appendingPathComponent($0), encoding: .utf8) }
        #expect(keptText == ["first\nrewritten\nafter\n"])
        #expect(try leftovers(beside: url).isEmpty)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
