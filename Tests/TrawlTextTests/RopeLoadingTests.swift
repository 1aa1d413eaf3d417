import Foundation
import Testing
@testable import TrawlText

@Suite struct RopeLoadingTests {
    @Test func invalidUTF8IsRejectedWithItsOffset() throws {
        let cases: [([UInt8], Int)] = [
            ([0x61, 0x62, 0xFF], 2),                    // never-valid byte
            ([0x61, 0xC3], 1),                          // truncated two-byte sequence
            ([0xE0, 0x80, 0x80], 0),                    // overlong
            ([0x61, 0xED, 0xA0, 0x80], 1),              // surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0),              // beyond U+10FFFF
            (Array(repeating: 0x61, count: 100) + [0x80], 100), // stray continuation after the ASCII fast path
        ]
        for (bytes, offset) in cases {
            #expect(throws: InvalidUTF8Error(offset: offset)) { try Rope(validating: bytes) }
        }
        #expect(try Rope(validating: Array("héllo 😀".utf8)) == Rope("héllo 😀"))
    }

    @Test func filesLoadAndBadFilesReportWhy() throws {
        let directory = scratchURL("load")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = String(repeating: "line with ünïcode 😀\r\n", count: 5000)
        let good = directory.appendingPathComponent("good.txt")
        try Data(text.utf8).write(to: good)
        let rope = try Rope(contentsOfFile: good.path)
        #expect(String(rope) == text)
        #expect(rope.invariantViolation() == nil)

        let bad = directory.appendingPathComponent("bad.txt")
        try Data(Array("ok\n".utf8) + [0xC0, 0xAF]).write(to: bad)
        #expect(throws: TextLoadError.invalidUTF8(path: bad.path, offset: 3)) { try Rope(contentsOfFile: bad.path) }

        let missing = directory.appendingPathComponent("missing.txt").path
        #expect(throws: TextLoadError.unreadable(path: missing, reason: "No such file or directory")) {
            try Rope(contentsOfFile: missing)
        }
        #expect(throws: TextLoadError.unreadable(path: directory.path, reason: "is a directory")) {
            try Rope(contentsOfFile: directory.path)
        }
        let empty = directory.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        #expect(try Rope(contentsOfFile: empty.path).isEmpty)
    }
}
