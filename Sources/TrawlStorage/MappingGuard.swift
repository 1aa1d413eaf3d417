#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage

/// A memory mapping protected against SIGBUS (see `trawl_guard_register`), unmapped by `release`
/// (or when the last reference goes).
package final class MappingGuard: @unchecked Sendable { // immutable but for the released flag, set once by the text's last owner
    private let address: UInt
    private let length: Int
    private let slot: Int32
    private var released = false

    /// Guards the mapping at `address` (before its first access); `nil` when every slot is in use
    /// (then unmap it and read the file instead).
    public init?(address: UnsafeMutableRawPointer, length: Int) {
        slot = trawl_guard_register(address, length)
        guard slot >= 0 else { return nil }
        self.address = UInt(bitPattern: address)
        self.length = length
    }

    /// Whether the file shrank under the mapping (the pages past its end now read as zeros).
    package var faulted: Bool { !released && trawl_guard_faulted(slot) != 0 }

    /// The mapped bytes (valid until ``release()``).
    package var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafePointer(bitPattern: address), count: length)
    }

    /// A guarded private, read-only mapping of the first `length` bytes (not zero) of the file
    /// open at `descriptor`; nil when the system or the guard has no room for it.
    package static func map(_ descriptor: FileDescriptor, length: Int) -> MappingGuard? {
        guard length > 0, let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0), address != MAP_FAILED else { return nil }
        guard let mapping = MappingGuard(address: address, length: length) else {
            munmap(address, length)
            return nil
        }
        return mapping
    }

    /// Unmaps the memory (once; later calls do nothing).
    public func release() {
        guard !released else { return }
        released = true
        trawl_guard_unregister(slot)
        munmap(UnsafeMutableRawPointer(bitPattern: address), length)
    }

    deinit { release() }
}
