#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

extension FileDescriptor {
    /// Reads until the end; on failure, what was read and the error.
    package func readToEnd() -> (bytes: [UInt8], error: Errno?) {
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
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        try TrawlStorage.writeAll(self, bytes)
    }
}

/// Writes all of `bytes` to `descriptor` (retrying interrupted and partial writes).
package func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
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

/// `fstat` of an open file, or the error.
package func statDescriptor(_ descriptor: FileDescriptor) -> Result<stat, Errno> {
    var status = stat()
    return fstat(descriptor.rawValue, &status) == 0 ? .success(status) : .failure(Errno(rawValue: errno))
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

/// `stat` of a path, or the error.
package func statPath(_ path: FilePath, followLinks: Bool = true) -> Result<stat, Errno> {
    var status = stat()
    let result = path.withPlatformString { followLinks ? stat($0, &status) : lstat($0, &status) }
    return result == 0 ? .success(status) : .failure(Errno(rawValue: errno))
}
