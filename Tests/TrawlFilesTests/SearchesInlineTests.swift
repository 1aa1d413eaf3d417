import Foundation
import SystemPackage
import Testing
import TrawlFiles
import TrawlTestSupport

/// When a tree search reads its files on the calling thread: one path that is not a folder, or a few
/// small regular files; never a folder, many or large files, or devices and FIFOs beside others.
@Suite struct SearchesInlineTests {
    @Test func fewSmallFilesOnlyOrOnePath() throws {
        let folder = try temporaryFolder("inline")
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, bytes: Int) throws -> FilePath {
            let url = folder.appendingPathComponent(name)
            try Data(repeating: 0x61, count: bytes).write(to: url)
            return FilePath(url.path)
        }
        let small = try (0..<9).map { try file("small\($0)", bytes: 100) }
        let large = try file("large", bytes: WalkedFiles.fewBytes)
        let fifo = FilePath(folder.appendingPathComponent("fifo").path)
        #expect(mkfifo(fifo.string, 0o600) == 0)

        #expect(!WalkedFiles([FilePath(folder.path)]).areFewAndSmall, "a folder")
        #expect(WalkedFiles([large]).areFewAndSmall, "one file, however large")
        #expect(WalkedFiles([fifo]).areFewAndSmall, "one FIFO")
        #expect(WalkedFiles(["/dev/null"]).areFewAndSmall, "one device")
        #expect(WalkedFiles(Array(small.prefix(8))).areFewAndSmall, "eight small files")
        #expect(!WalkedFiles(small).areFewAndSmall, "nine files")
        #expect(!WalkedFiles([small[0], large]).areFewAndSmall, "more bytes than the limit together")
        #expect(!WalkedFiles([small[0], fifo]).areFewAndSmall, "a FIFO beside a file")
        #expect(!WalkedFiles([small[0], FilePath(folder.path)]).areFewAndSmall, "a folder beside a file")
        #expect(!WalkedFiles([small[0], FilePath(folder.appendingPathComponent("missing").path)]).areFewAndSmall, "a missing path beside a file")
    }
}
