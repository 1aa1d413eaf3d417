#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A whole file's bytes, to be read once as they are (not checked as text): a large regular file
/// is memory-mapped, anything else is read into memory.
///
/// Mapping hands over the page cache's pages as they are; reading copies them into fresh memory,
/// which the system must clear first (a large part of the start of a catalog build from a large
/// file). The mapping is guarded (``MappingGuard``): a file another program
/// truncates reads as zeros from there on, and ``changedWhileMapped`` says so.
package struct FileBytes: Sendable {
    private enum Storage: Sendable {
        case read([UInt8])
        case mapped(MappingGuard)
    }

    private let storage: Storage

    /// Files this large or larger are mapped.
    package static let mapThreshold = 1 << 20

    /// Bytes already in memory (standard input, say).
    package init(_ bytes: [UInt8]) { storage = .read(bytes) }

    private init(mapped mapping: MappingGuard) { storage = .mapped(mapping) }

    /// The bytes of the file open at `descriptor`, from its start for a mapped file and from
    /// where it stands otherwise.
    package static func read(_ descriptor: FileDescriptor) throws(Errno) -> FileBytes {
        if case let .success(status) = statDescriptor(descriptor), status.st_mode & S_IFMT == S_IFREG,
           Int(status.st_size) >= FileBytes.mapThreshold, let mapping = MappingGuard.map(descriptor, length: Int(status.st_size)) {
            return FileBytes(mapped: mapping)
        }
        let (bytes, error) = descriptor.readToEnd()
        if let error { throw error }
        return FileBytes(bytes)
    }

    /// Calls `body` with the bytes (valid while it runs).
    package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch storage {
        case let .read(bytes): try bytes.withUnsafeBufferPointer(body)
        case let .mapped(mapping): try withExtendedLifetime(mapping) { try body(mapping.bytes) }
        }
    }

    /// The bytes when the file is mapped: they stay where they are while this value (or a copy)
    /// lives, so a reader may keep pointers into them.
    package var mappedBytes: UnsafeBufferPointer<UInt8>? {
        if case let .mapped(mapping) = storage { mapping.bytes } else { nil }
    }

    /// Whether the file shrank while it was mapped: the bytes past its new end read as zeros, so
    /// what was taken from them must not be trusted.
    package var changedWhileMapped: Bool {
        if case let .mapped(mapping) = storage { mapping.faulted } else { false }
    }
}
