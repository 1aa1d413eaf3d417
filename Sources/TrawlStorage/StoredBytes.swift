#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes of a stored index file kept for many reads: a mapping of the file, guarded against its
/// shrinking (a segment's trigram table is megabytes and every search reads it: copying it in was
/// most of the time of a search for a rare word), or a copy where mapping is not possible.
package final class StoredBytes: @unchecked Sendable { // immutable once made
    package let bytes: UnsafeRawBufferPointer
    private let mapping: MappingGuard?
    private let copy: UnsafeMutableRawBufferPointer?

    package init(copying array: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, array.count), alignment: 8)
        array.withUnsafeBytes { copy.copyMemory(from: $0) }
        self.copy = copy
        bytes = UnsafeRawBufferPointer(rebasing: copy[0..<array.count])
        mapping = nil
    }

    /// `count` bytes at `offset` of the open file `descriptor`, mapped; `nil` when they cannot be.
    package init?(mapping descriptor: Int32, offset: Int, count: Int) {
        guard offset >= 0, count > 0 else { return nil }
        // Mapped from the file's start (offsets must be page-aligned; a table starts at 36).
        let length = offset + count
        guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return nil }
        guard let mapping = MappingGuard(address: address, length: length) else {
            munmap(address, length)
            return nil
        }
        self.mapping = mapping
        copy = nil
        bytes = UnsafeRawBufferPointer(start: address + offset, count: count)
    }

    /// Whether the file shrank under the mapping: what was read may be zeros, not the file.
    package var faulted: Bool { mapping?.faulted ?? false }

    deinit {
        mapping?.release()
        copy?.deallocate()
    }
}
