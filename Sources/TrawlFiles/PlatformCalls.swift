#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's calls whose names a type's own methods shadow (`read`, `write`, `accept`,
/// `exit`), reached under one name on every platform: the one place that names the platform's
/// module.
package enum PlatformCalls {
    /// `read(2)`.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// `write(2)`.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// `accept(2)`, without the peer's address.
    package static func accept(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.accept(descriptor, nil, nil)
        #else
        Darwin.accept(descriptor, nil, nil)
        #endif
    }

    /// `exit(3)`.
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }
}

extension stat {
    /// The modification time (`st_mtim`, `st_mtimespec` on Apple platforms).
    package var modificationTime: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }

    /// The status change time (`st_ctim`, `st_ctimespec` on Apple platforms).
    package var changeTime: timespec {
        #if canImport(Darwin)
        st_ctimespec
        #else
        st_ctim
        #endif
    }
}
