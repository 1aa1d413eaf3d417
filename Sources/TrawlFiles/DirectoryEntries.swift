#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlStorage

/// An entry of a directory as `readdir` gives it.
package struct DirectoryEntry: Sendable, Hashable {
    /// The name (bytes: not always UTF-8).
    package var name: [UInt8]
    /// The `d_type` (`DT_REG`, `DT_DIR`, `DT_LNK`..., `DT_UNKNOWN` where the file system does not say).
    package var type: UInt8

    package init(name: [UInt8], type: UInt8) {
        self.name = name
        self.type = type
    }
}

extension FilePath {
    /// The entries of the directory at this path (without `.` and `..`), sorted bytewise by name.
    package func directoryEntries() -> Result<[DirectoryEntry], Errno> {
        guard let handle = withPlatformString({ opendir($0) }) else { return .failure(Errno(rawValue: errno)) }
        defer { closedir(handle) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            entries.append(DirectoryEntry(name: name, type: entry.pointee.d_type))
        }
        entries.sort { $0.name.lexicographicallyPrecedes($1.name) }
        return .success(entries)
    }

    /// The `stat` of the path itself (a symbolic link is not followed), or the error.
    package func linkStatus() -> Result<stat, Errno> { statPath(self, followLinks: false) }

    /// `self/relative` (bytes, `/`-separated), without a doubled separator.
    package func appending(relative: [UInt8]) -> FilePath {
        relative.isEmpty ? self : FilePath(bytes: joinedPath(bytes, relative))
    }
}
