#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A text file that could not be loaded.
public enum TextLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is not valid UTF-8; `offset` is the first ill-formed byte.
    case invalidUTF8(path: String, offset: Int)

    /// Why the file could not be loaded, for a message.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .invalidUTF8(let path, let offset): "\(path): invalid UTF-8 at byte offset \(offset)"
        }
    }
}

/// Reads a whole file into memory; a file that grows while being read is read to its new end.
func readWholeFile(atPath path: String) throws(TextLoadError) -> [UInt8] {
    func failure(_ code: Int32) -> TextLoadError { .unreadable(path: path, reason: String(cString: strerror(code))) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
    if (status.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
    let expected = max(Int(status.st_size), 0)
    var readError: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
        count = 0
        while count < expected {
            let got = read(descriptor, buffer.baseAddress! + count, expected - count)
            if got > 0 {
                count += got
            } else if got == 0 {
                return
            } else if errno != EINTR {
                readError = errno
                return
            }
        }
    }
    if readError != 0 { throw failure(readError) }
    var extra = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let got = extra.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if got > 0 {
            bytes.append(contentsOf: extra[..<got])
        } else if got == 0 {
            return bytes
        } else if errno != EINTR {
            throw failure(errno)
        }
    }
}

extension Rope {
    /// Loads a UTF-8 text file.
    ///
    /// - Throws: ``TextLoadError/invalidUTF8(path:offset:)`` naming the first ill-formed byte (the
    ///   text is never repaired), or ``TextLoadError/unreadable(path:reason:)``.
    public init(contentsOfFile path: String) throws(TextLoadError) {
        let bytes = try readWholeFile(atPath: path)
        let built: Result<Node, TextLoadError> = bytes.withUnsafeBufferPointer { buffer in
            if let offset = InvalidUTF8Error.firstInvalidOffset(in: buffer) {
                return .failure(.invalidUTF8(path: path, offset: offset))
            }
            return .success(Node.build(validUTF8: buffer))
        }
        root = try built.get()
    }
}
