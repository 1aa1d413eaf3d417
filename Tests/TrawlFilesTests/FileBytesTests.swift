import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles
import TrawlTestSupport
import TrawlStorage

/// A whole file's bytes: mapped when large and regular, read otherwise, the same bytes either way;
/// a mapped file that shrinks is reported.
@Suite struct FileBytesTests {
    func file(_ bytes: [UInt8]) throws -> FilePath { try temporaryFile(bytes, label: "bytes") }

    @Test func largeAndSmallFilesGiveTheirBytes() throws {
        var random = SeededGenerator(seed: 7)
        for count in [0, 1, 4096, FileContent.mapThreshold - 1, FileContent.mapThreshold, FileContent.mapThreshold + 4097] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let descriptor = try FileDescriptor.open(try file(bytes), .readOnly)
            let read = try descriptor.closeAfter { try FileBytes.read(descriptor) }
            let same = read.withBytes { $0.elementsEqual(bytes) } // not the arrays: a failure would print megabytes
            #expect(same, "\(count) bytes")
            #expect(!read.changedWhileMapped)
        }
    }

    @Test func aPipeIsReadToItsEnd() throws {
        let pipe = try FileDescriptor.pipe()
        let bytes = Array("a line\nanother\n".utf8)
        try pipe.writeEnd.closeAfter { _ = try bytes.withUnsafeBytes { try pipe.writeEnd.writeAll($0) } }
        let read = try pipe.readEnd.closeAfter { try FileBytes.read(pipe.readEnd) }
        #expect(read.withBytes { Array($0) } == bytes)
    }

    /// Another program truncates the file after it was mapped: its vanished bytes read as zeros
    /// (no SIGBUS) and the bytes say they changed.
    @Test func aMappedFileThatShrinksIsReported() throws {
        let count = FileContent.mapThreshold * 2
        let path = try file(Array(repeating: UInt8(ascii: "x"), count: count))
        let descriptor = try FileDescriptor.open(path, .readWrite)
        let read = try descriptor.closeAfter {
            let read = try FileBytes.read(descriptor)
            #expect(ftruncate(descriptor.rawValue, 4096) == 0)
            return read
        }
        let last = read.withBytes { $0[count - 1] }
        #expect(last == 0)
        #expect(read.changedWhileMapped)
    }
}
