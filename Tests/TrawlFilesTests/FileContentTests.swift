import Foundation
import SystemPackage
import Testing
@testable import TrawlFiles
import TrawlKernels
import TrawlTestSupport
import TrawlStorage
import TrawlConcurrency

@Suite struct FileContentTests {
    func file(_ bytes: [UInt8]) throws -> FilePath { try temporaryFile(bytes, label: "content") }

    @Test(arguments: [FileContent.Purpose.rewrite, .search(allowsMapping: true, allowsStreams: false)])
    func aNulAnywhereMakesAFileBinary(purpose: FileContent.Purpose) throws {
        // Past the first block, and past the mapping threshold for the mapped read.
        var bytes = Array(repeating: UInt8(ascii: "a"), count: FileContent.mapThreshold + 100)
        bytes[FileContent.mapThreshold + 7] = 0
        let result = FileContent.read(path: try file(bytes), for: purpose)
        #expect(result.failure == .binary(offset: FileContent.mapThreshold + 7))
    }

    /// A regular file is read in one array of its size, from where the descriptor stands; a pipe,
    /// whose size is unknown, in pieces.
    @Test func readToEndReadsFilesOfAnySizeAndPipes() throws {
        var random = SeededGenerator(seed: 12)
        for count in [0, 1, 65_536, 65_537, 300_001] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let descriptor = try FileDescriptor.open(try file(bytes), .readWrite)
            defer { try? descriptor.close() }
            let read = descriptor.readToEnd()
            #expect(read.error == nil)
            // Compared first: a failed expectation on two large arrays would diff them for minutes.
            let equal = read.bytes == bytes
            #expect(equal, "\(count) bytes: read \(read.bytes.count)")
            // From where the descriptor stands, not from the start.
            if count > 100 {
                _ = try descriptor.seek(offset: 100, from: .start)
                let rest = descriptor.readToEnd().bytes
                let restEqual = rest == Array(bytes[100...])
                #expect(restEqual, "\(count) bytes from 100: read \(rest.count)")
            }
        }
        let pipe = try FileDescriptor.pipe()
        let payload = [UInt8](repeating: 1, count: 100_000)
        let writer = Thread {
            _ = try? payload.withUnsafeBytes { try pipe.writeEnd.writeAll($0) }
            try? pipe.writeEnd.close()
        }
        writer.start()
        let piped = pipe.readEnd.readToEnd().bytes
        let pipedEqual = piped == payload
        #expect(pipedEqual, "read \(piped.count) bytes of \(payload.count)")
        try pipe.readEnd.close()
    }

    @Test func aLargeTextCheckedInPartsFindsTheSameFirstBadByteAsOnePass() {
        // Text of 1- to 4-byte scalars past the threshold, so that part bounds fall inside scalars;
        // then one bad byte (a NUL, a stray continuation byte, a truncated sequence) placed near a
        // nominal part bound or anywhere, against the whole-text kernel in one pass.
        var random = SeededGenerator(seed: 11)
        let scalars: [[UInt8]] = [Array("a".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x0A]]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(partedWorkThreshold + 4100)
        while bytes.count < partedWorkThreshold + 4096 { bytes.append(contentsOf: scalars.randomElement(using: &random)!) }
        let onePass = { (bytes: [UInt8]) in bytes.withUnsafeBufferPointer { trawl_text_check($0.baseAddress!, $0.count) } }
        #expect(bytes.withUnsafeBufferPointer(FileContent.check) == nil)
        for trial in 0..<18 {
            var broken = bytes
            let near = bytes.count * Int.random(in: 1...7, using: &random) / 8
            let at = trial % 2 == 0 ? near + Int.random(in: -4...4, using: &random) : Int.random(in: 0..<bytes.count, using: &random)
            broken[at] = [0x00, 0x80, 0xBF, 0xE2, 0xF0, 0xFF][trial % 6]
            let stop = onePass(broken)
            let expected: FileSkip? = stop == broken.count ? nil : broken[stop] == 0 ? .binary(offset: stop) : .invalidUTF8(offset: stop)
            #expect(broken.withUnsafeBufferPointer(FileContent.check) == expected, "bad byte at \(at)")
        }
    }

    @Test func checkingInBlocksFindsWhatACheckFirstFinds() throws {
        // A mapped text read without its check, then checked in blocks of many sizes (a block per
        // line, a few lines, the default; in parts past the parted-work threshold): the blocks
        // cover the text in order, cut after line feeds, and the first bad byte found is the one
        // a check on reading finds, with a byte-order mark counted in its offset.
        var random = SeededGenerator(seed: 23)
        let scalars: [[UInt8]] = [Array("a".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x0A], [0x0A], [0x0D, 0x0A]]
        for trial in 0..<14 {
            let large = trial >= 11
            var bytes: [UInt8] = trial % 3 == 2 ? [0xEF, 0xBB, 0xBF] : []
            let size = large ? partedWorkThreshold + 5000 : FileContent.mapThreshold + Int.random(in: 0...5000, using: &random)
            bytes.reserveCapacity(size + 4)
            while bytes.count < size {
                // Now and then a long line, longer than a block.
                if Int.random(in: 0..<2000, using: &random) == 0 { bytes += Array(repeating: UInt8(ascii: "z"), count: 70_000) }
                bytes += scalars.randomElement(using: &random)!
            }
            if trial % 4 != 0 {
                let at = trial % 2 == 0 ? bytes.count * Int.random(in: 1...7, using: &random) / 8 + Int.random(in: -3...3, using: &random)
                    : Int.random(in: 3..<bytes.count, using: &random)
                bytes[at] = [0x00, 0x80, 0xBF, 0xE2, 0xF0, 0xFF][trial % 6]
            }
            let path = try file(bytes)
            let expected = bytes.withUnsafeBufferPointer(FileContent.check)
            #expect(FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: false)).failure == expected)
            let content = try FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: false, checksLater: true)).get()
            #expect(!content.isChecked)
            #expect(content.checked().failure == expected, "trial \(trial)")
            let text = Array(bytes[content.byteOrderMark.count...])
            for blockBytes in large ? [4096, FileContent.checkBlockBytes] : [1, 300, 65536, FileContent.checkBlockBytes] {
                let blocks = content.inCheckedBlocks(blockBytes: blockBytes) { $0 }
                #expect(blocks.failure == expected, "trial \(trial), blocks of \(blockBytes)")
                guard case .success(let ranges) = blocks else { continue }
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == text.count)
                for (range, next) in zip(ranges, ranges.dropFirst()) {
                    #expect(range.upperBound == next.lowerBound && !range.isEmpty && text[range.upperBound - 1] == 0x0A)
                    // Within one part, a block ends at the first line start at or past its size.
                    if !large {
                        #expect(range.count >= blockBytes && !text[(range.lowerBound + blockBytes - 1)..<(range.upperBound - 1)].contains(0x0A))
                    }
                }
            }
        }
    }

    @Test func aFileTooSmallToMapIsCheckedWhenRead() throws {
        let path = try file(Array("caf".utf8) + [0xE9, 0x0A])
        #expect(FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: false, checksLater: true)).failure
                == .invalidUTF8(offset: 3))
        let content = try FileContent.read(path: try file(Array("café\n".utf8)), for: .search(allowsMapping: true, allowsStreams: false, checksLater: true)).get()
        #expect(content.isChecked)
    }

    @Test func invalidUTF8IsReportedWithItsOffset() throws {
        let result = FileContent.read(path: try file(Array("caf".utf8) + [0xE9, 0x0A]), for: .rewrite)
        #expect(result.failure == .invalidUTF8(offset: 3))
    }

    @Test func aUTF8ByteOrderMarkIsKeptApartFromTheText() throws {
        let content = try FileContent.read(path: try file([0xEF, 0xBB, 0xBF] + Array("line\n".utf8)), for: .rewrite).get()
        #expect(content.byteOrderMark == [0xEF, 0xBB, 0xBF])
        #expect(content.text.withBytes { Array($0) } == Array("line\n".utf8))
        #expect(content.snapshot.size == 8)
    }

    @Test(arguments: [([UInt8]([0xFF, 0xFE, 0x61, 0x00]), false), ([0xFE, 0xFF, 0x00, 0x61], true)])
    func utf16IsRecognisedByItsByteOrderMark(bytes: [UInt8], bigEndian: Bool) throws {
        #expect(FileContent.read(path: try file(bytes), for: .rewrite).failure == .utf16(bigEndian: bigEndian))
    }

    @Test func theRewriteHashIsTheHashOfEveryByte() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + Array("some text\n".utf8)
        let content = try FileContent.read(path: try file(bytes), for: .rewrite).get()
        #expect(content.hash == bytes.withUnsafeBufferPointer(ContentHasher.hash))
    }

    @Test func theHashDoesNotDependOnHowTheBytesArePieced() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var hasher = ContentHasher()
            var index = 0
            while index < bytes.count {
                let end = min(bytes.count, index + Int.random(in: 1...11, using: &random))
                bytes[index..<end].withUnsafeBufferPointer { hasher.update($0) }
                index = end
            }
            #expect(hasher.finalize() == bytes.withUnsafeBufferPointer(ContentHasher.hash))
        }
        // Trailing zeros change the hash.
        #expect([1, 2].withUnsafeBufferPointer(ContentHasher.hash) != [1, 2, 0].withUnsafeBufferPointer(ContentHasher.hash))
    }

    @Test func aFIFONamedForSearchIsReadAsAStream() throws {
        let path = FilePath(try temporaryFolder("fifo").appendingPathComponent("pipe").path)
        #expect(path.withPlatformString { mkfifo($0, 0o600) } == 0)
        // The writer on a thread of its own: both ends block in open until the other arrives, and
        // a task could wait for a free thread of a busy pool for ever.
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            if let descriptor = try? FileDescriptor.open(path, .writeOnly) {
                _ = try? Array("streamed text\n".utf8).withUnsafeBytes { try descriptor.writeAll($0) }
                try? descriptor.close()
            }
            written.signal()
        }
        writer.start()
        let content = try FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: true)).get()
        written.wait()
        #expect(content.text.withBytes { Array($0) } == Array("streamed text\n".utf8))
        // Walked (not named) files are never read from a FIFO.
        #expect(FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: false)).failure == .notRegular(kind: "FIFO"))
    }

    @Test func aMappedFileThatShrinksDoesNotCrashAndIsReported() throws {
        let size = 8 * FileContent.mapThreshold
        let path = try file(Array(repeating: UInt8(ascii: "x"), count: size))
        let content = try FileContent.read(path: path, for: .search(allowsMapping: true, allowsStreams: false)).get()
        #expect(!content.changedWhileMapped)
        // Another program truncates the file (log rotation) while it is searched.
        #expect(path.withPlatformString { truncate($0, 4096) } == 0)
        let sum = content.text.withBytes { bytes in bytes.reduce(0) { $0 &+ Int($1) } }
        #expect(sum == 4096 * Int(UInt8(ascii: "x")), "the vanished part reads as zeros")
        #expect(content.changedWhileMapped)
    }
}
