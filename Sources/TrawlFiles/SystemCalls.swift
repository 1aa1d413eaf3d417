#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

// One home for the system-call helpers of the files library: interrupted calls are retried, a
// `write` that makes no progress is an error, and every failure is described the same way.

/// The system's description of an `errno` value.
func systemMessage(_ code: Int32) -> String { String(cString: strerror(code)) }

extension FileDescriptor {
    /// Reads until the end; on failure, what was read and the error.
    public func readToEnd() -> (bytes: [UInt8], error: Errno?) {
        let descriptor = self
        var result: [UInt8] = []
        // A regular file's size is known: read it into one array of that size (growing an array by
        // doubling touches twice the memory, and fresh pages are what a large read costs most).
        if case let .success(file) = statDescriptor(self), file.st_mode & S_IFMT == S_IFREG, file.st_size > 1 << 16 {
            var failure: Errno?
            result = [UInt8](unsafeUninitializedCapacity: Int(file.st_size)) { target, initialized in
                while initialized < target.count {
                    do {
                        // At most 1 GiB a call: Darwin refuses a read of more than INT_MAX bytes.
                        let piece = UnsafeMutableBufferPointer(rebasing: target[initialized..<min(target.count, initialized + 1 << 30)])
                        let got = try descriptor.read(into: UnsafeMutableRawBufferPointer(piece), retryOnInterrupt: true)
                        if got == 0 { break }
                        initialized += got
                    } catch {
                        failure = error as? Errno ?? Errno(rawValue: EIO)
                        break
                    }
                }
            }
            // Short: the file shrank or the descriptor did not stand at its start (the end is
            // reached), or a read failed; else the file may have grown.
            if let failure { return (result, failure) }
            if result.count < Int(file.st_size) { return (result, nil) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            do {
                let got = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0, retryOnInterrupt: true) }
                if got == 0 { return (result, nil) }
                result.append(contentsOf: buffer[..<got])
            } catch {
                return (result, error as? Errno ?? Errno(rawValue: EIO))
            }
        }
    }

    /// Writes all of `bytes` (retrying interrupted and partial writes).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try TrawlFiles.writeAll(self, bytes)
    }
}

/// Writes all of `bytes` to `descriptor` (retrying interrupted and partial writes).
func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var written = 0
    while written < bytes.count {
        let count: Int
        do {
            count = try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[written...]), retryOnInterrupt: true)
        } catch {
            throw error as! Errno // FileDescriptor.write throws only Errno
        }
        // A write that accepts nothing would loop forever: report it as the device being full.
        if count == 0 { throw Errno.noSpace }
        written += count
    }
}

extension FilePath {
    /// The path's bytes (without the terminating NUL): paths are bytes on Unix, not always UTF-8.
    public var bytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
        }
    }

    /// A path from raw bytes (which need not be UTF-8): one copy, for the paths a search makes
    /// per file (the generic form below walks an iterator through witness tables).
    public init(bytes: [UInt8]) {
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
    public init(bytes: some Collection<UInt8>) { self.init(bytes: Array(bytes)) }

    /// This path with `name` (raw bytes of one component) appended.
    func appending(name: [UInt8]) -> FilePath { FilePath(bytes: joinedPath(bytes, name)) }

    /// The absolute path with every symbolic link resolved (`realpath`), or `nil` (errno set).
    public func resolved() -> FilePath? {
        guard let resolved = withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(platformString: resolved)
    }
}

extension FilePath {
    /// The `stat` of the file the path names (links followed), or the error.
    public func status() -> Result<stat, Errno> { statPath(self) }
}

/// `directory/name` as bytes (no doubled separator after a root such as `/` or `dir/`).
func joinedPath(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
    directory.last == UInt8(ascii: "/") ? directory + name : directory + [UInt8(ascii: "/")] + name
}

/// `fstat` of an open file, or the error.
func statDescriptor(_ descriptor: FileDescriptor) -> Result<stat, Errno> {
    var status = stat()
    return fstat(descriptor.rawValue, &status) == 0 ? .success(status) : .failure(Errno(rawValue: errno))
}

/// `stat` of a path, or the error.
func statPath(_ path: FilePath, followLinks: Bool = true) -> Result<stat, Errno> {
    var status = stat()
    let result = path.withPlatformString { followLinks ? stat($0, &status) : lstat($0, &status) }
    return result == 0 ? .success(status) : .failure(Errno(rawValue: errno))
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

/// `count` bytes at `offset` of the open file `descriptor`, or `nil` when it has fewer (it
/// shrank, or ends sooner). Not zeroed first: an index's table is megabytes, read at every search.
package func readBytes(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
    var got = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        while got < count {
            let n = pread(descriptor, buffer.baseAddress! + got, count - got, off_t(offset + got))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        // A short read is refused below; the bytes never read are not kept.
        initialized = got
    }
    return got == count ? bytes : nil
}
