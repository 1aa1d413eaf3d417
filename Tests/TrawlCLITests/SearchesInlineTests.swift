import Foundation
import SystemPackage
import Testing
@testable import TrawlCLI
import TrawlTestSupport

/// When a search reads its files on the calling thread: one path that is not a folder, or a few
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
        let large = try file("large", bytes: FindRun.bytesSearchedInline)
        let fifo = FilePath(folder.appendingPathComponent("fifo").path)
        #expect(mkfifo(fifo.string, 0o600) == 0)

        #expect(!FindRun.searchesInline([FilePath(folder.path)], narrowing: nil), "a folder")
        #expect(FindRun.searchesInline([large], narrowing: nil), "one file, however large")
        #expect(FindRun.searchesInline([fifo], narrowing: nil), "one FIFO")
        #expect(FindRun.searchesInline(["/dev/null"], narrowing: nil), "one device")
        #expect(FindRun.searchesInline(Array(small.prefix(8)), narrowing: nil), "eight small files")
        #expect(!FindRun.searchesInline(small, narrowing: nil), "nine files")
        #expect(!FindRun.searchesInline([small[0], large], narrowing: nil), "more bytes than the limit together")
        #expect(!FindRun.searchesInline([small[0], fifo], narrowing: nil), "a FIFO beside a file")
        #expect(!FindRun.searchesInline([small[0], FilePath(folder.path)], narrowing: nil), "a folder beside a file")
        #expect(!FindRun.searchesInline([small[0], FilePath(folder.appendingPathComponent("missing").path)], narrowing: nil), "a missing path beside a file")
    }
}
