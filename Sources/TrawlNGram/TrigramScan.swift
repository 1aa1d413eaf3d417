#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TrawlText

/// Reading the trigrams of a text.
package enum TrigramScan {
    /// Calls `body` with the key of every trigram starting in `range` of `text` (the last ones
    /// read up to two bytes past the range, as far as the text goes), in order, repeats included.
    /// Inlinable: an edit of an indexed document calls it per edit with a closure per key, which
    /// the caller's module must specialize.
    @inlinable
    package static func forEach(startingIn range: Range<Int>, of text: Rope, _ body: (UInt32) -> Void) {
        let end = min(range.upperBound + 2, text.utf8Count)
        guard end - range.lowerBound >= 3 else { return }
        var key: UInt32 = 0
        var read = 0
        for chunk in text.chunks(in: range.lowerBound..<end) {
            chunk.withUnsafeBytes { bytes in
                for byte in bytes {
                    key = Trigram.roll(key, byte)
                    read += 1
                    if read >= 3 { body(key) }
                }
            }
        }
    }
}

/// Collects the distinct trigrams of spans of text, with one bit per possible key (2 MiB) as
/// scratch space that is cleared again after each span. Collectors are pooled (clearing 2 MiB
/// costs more than indexing a unit): ``withCollector(_:)`` lends one to one caller at a time.
package final class TrigramCollector: @unchecked Sendable {
    private let bits: UnsafeMutablePointer<UInt64>

    private init() {
        // On one huge page where Linux gives them: one page fault instead of 512 (a refresh of a
        // few files took longer to fault its workers' scratch bits in than to read the files).
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 1 << 21, alignment: 1 << 21)
        #if os(Linux)
        _ = madvise(raw, 1 << 21, MADV_HUGEPAGE)
        #endif
        bits = raw.bindMemory(to: UInt64.self, capacity: 1 << 18)
        bits.initialize(repeating: 0, count: 1 << 18)
    }

    deinit { UnsafeMutableRawPointer(bits).deallocate() }

    private static let pool = Mutex<[TrigramCollector]>([])

    /// Runs `body` with a collector of its own.
    package static func withCollector<R>(_ body: (TrigramCollector) throws -> R) rethrows -> R {
        let collector = pool.withLock { $0.popLast() } ?? TrigramCollector()
        defer { pool.withLock { if $0.count < 4 { $0.append(collector) } } }
        return try body(collector)
    }

    /// The distinct trigram keys starting in `range` of `text`, in order of first occurrence.
    package func distinct(startingIn range: Range<Int>, of text: Rope) -> [UInt32] {
        let end = min(range.upperBound + 2, text.utf8Count)
        guard end - range.lowerBound >= 3 else { return [] }
        var window = Window()
        window.found.reserveCapacity(min(range.count, 4096))
        for chunk in text.chunks(in: range.lowerBound..<end) {
            chunk.withUnsafeBytes { window.absorb($0.assumingMemoryBound(to: UInt8.self), into: bits) }
        }
        return finish(window)
    }

    /// The distinct trigram keys of `bytes`.
    package func distinct(in bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var window = Window()
        window.absorb(bytes, into: bits)
        return finish(window)
    }

    /// A rolling three-byte window over text that may come in pieces, and the new keys it met.
    private struct Window {
        var key: UInt32 = 0
        var read = 0
        var found: [UInt32] = []

        mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>, into bits: UnsafeMutablePointer<UInt64>) {
            // Locals in the hot loop (the struct's fields behind `self` cost half the speed).
            var key = key, read = read, found = found
            self.found = []
            var index = 0
            // The first two bytes of the text only start the window.
            while read < 2 && index < bytes.count {
                key = Trigram.roll(key, bytes[index])
                read += 1
                index += 1
            }
            while index < bytes.count {
                key = Trigram.roll(key, bytes[index])
                index += 1
                let word = Int(key >> 6), bit: UInt64 = 1 << UInt64(key & 63)
                if bits[word] & bit == 0 {
                    bits[word] |= bit
                    found.append(key)
                }
            }
            (self.key, self.read, self.found) = (key, read, found)
        }
    }

    /// The keys found, with the scratch bits cleared again.
    private func finish(_ window: Window) -> [UInt32] {
        for key in window.found { bits[Int(key >> 6)] &= ~(1 << UInt64(key & 63)) }
        return window.found
    }

    package func distinctTrigrams(startingIn range: Range<Int>, of text: Rope) -> [Trigram] {
        distinct(startingIn: range, of: text).map { Trigram(key: $0) }
    }
}
