#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage

/// A folder held open so that the paths a walk found below it are opened without following
/// links: a name another process swaps for a link (to a file outside the tree, say) between the
/// walk and the read or the write is refused, not followed. The folder itself is the one the
/// user named, links in its own path followed.
public final class FolderAnchor: Sendable {
    /// The folder's path, as given.
    public let path: FilePath
    /// The bytes of ``path`` ending in one `/`: a path below it is this and its relative part.
    let prefix: [UInt8]
    let descriptor: Int32

    /// Opens the folder at `path`; `nil` when it cannot be opened.
    public init?(_ path: FilePath) {
        let opened = path.withPlatformString { trawl_open_folder($0) }
        guard opened >= 0 else { return nil }
        self.path = path
        let bytes = path.bytes
        prefix = bytes.last == UInt8(ascii: "/") ? bytes : bytes + [UInt8(ascii: "/")]
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// The part of `path` below this folder, or `nil` when `path` is not below it.
    public func relative(_ path: FilePath) -> [UInt8]? {
        holds(path) ? Array(path.bytes[prefix.count...]) : nil
    }

    /// Whether `path` is below this folder (its bytes start with the folder's and a `/`).
    func holds(_ path: FilePath) -> Bool {
        path.withPlatformString { pointer in
            prefix.withUnsafeBytes { strlen(pointer) > $0.count && memcmp(pointer, $0.baseAddress!, $0.count) == 0 }
        }
    }

    /// Opens `relative` below the folder, following no link on the way (the last component
    /// included): `ELOOP` when there is one.
    public func open(_ relative: [UInt8], flags: Int32, mode: mode_t = 0) -> Result<FileDescriptor, Errno> {
        let opened = withNameString(relative) { trawl_open_beneath(descriptor, $0, flags, UInt32(mode)) }
        return opened >= 0 ? .success(FileDescriptor(rawValue: opened)) : .failure(Errno(rawValue: errno))
    }

    /// Opens `path` (below the folder: ``holds(_:)``) from the folder, as ``open(_:flags:mode:)``
    /// does, without copying its bytes (a search opens tens of thousands).
    func open(below path: FilePath, flags: Int32) -> Result<FileDescriptor, Errno> {
        let opened = path.withPlatformString { trawl_open_beneath(descriptor, $0 + prefix.count, flags, 0) }
        return opened >= 0 ? .success(FileDescriptor(rawValue: opened)) : .failure(Errno(rawValue: errno))
    }

    /// Opens the folder that holds `relative` (following no link) and returns it with the last
    /// component's name, for calls relative to the folder (`openat`, `renameat`...).
    public func openFolder(holding relative: [UInt8]) -> Result<(folder: FileDescriptor, name: [UInt8]), Errno> {
        guard let slash = relative.lastIndex(of: UInt8(ascii: "/")) else {
            let opened = dup(descriptor)
            guard opened >= 0 else { return .failure(Errno(rawValue: errno)) }
            _ = fcntl(opened, F_SETFD, FD_CLOEXEC)
            return .success((FileDescriptor(rawValue: opened), relative))
        }
        return open(Array(relative[..<slash]), flags: O_RDONLY | O_DIRECTORY).map { ($0, Array(relative[(slash + 1)...])) }
    }
}

/// Calls `body` with `name` as a NUL-terminated C string.
func withNameString<R>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    try (name + [0]).withUnsafeBufferPointer { bytes in
        try bytes.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
    }
}
