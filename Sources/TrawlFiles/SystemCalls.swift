#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlStorage

// One home for the system-call helpers of the files library: interrupted calls are retried, a
// `write` that makes no progress is an error, and every failure is described the same way.

/// The system's description of an `errno` value.
func systemMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

extension FilePath {
    /// The path's bytes (without the terminating NUL): paths are bytes on Unix, not always UTF-8.
    package var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    /// A path from raw bytes (which need not be UTF-8): one copy, for the paths a search makes
    /// per file (the generic form below walks an iterator through witness tables).
    package init(bytes: [UInt8]) {
        let cString = [CChar](unsafeUninitializedCapacity: bytes.count + 1) { buffer, count in
            count = 0
            for byte in bytes where byte != 0 {
                buffer[count] = CChar(bitPattern: byte)
                count += 1
            }
            buffer[count] = 0
            count += 1
        }
        self.init(platformString: cString)
    }

    /// A path from raw bytes (which need not be UTF-8).
    package init(bytes: some Collection<UInt8>) { self.init(bytes: Array(bytes)) }

    /// This path with `name` (raw bytes of one component) appended.
    func appending(name: [UInt8]) -> FilePath { FilePath(bytes: joinedPath(bytes, name)) }

    /// The absolute path with every symbolic link resolved (`realpath`), or `nil` (errno set).
    package func resolved() -> FilePath? {
        guard let resolved = withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }
}

extension FilePath {
    /// The `stat` of the file the path names (links followed), or the error.
    package func status() -> Result<stat, Errno> { statPath(self) }
}

/// `directory/name` as bytes (no doubled separator after a root such as `/` or `dir/`).
func joinedPath(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
    directory.last == UInt8(ascii: "/") ? directory + name : directory + [UInt8(ascii: "/")] + name
}



/// The kind of file a `st_mode` describes, in words, for messages.
func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "regular file"
    case S_IFDIR: "directory"
    case S_IFCHR: "character device"
    case S_IFBLK: "block device"
    case S_IFIFO: "FIFO"
    case S_IFSOCK: "socket"
    case S_IFLNK: "symbolic link"
    default: "special file"
    }
}

