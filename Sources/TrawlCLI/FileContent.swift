#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlMatch
import TrawlText

/// A file read whole into memory, with what is needed to write it back safely.
public struct FileContent: Sendable {
    /// The text (valid UTF-8).
    public let text: ContiguousText
    /// The file's identity and state when it was read, to detect changes before writing.
    public let snapshot: FileSnapshot
}

/// What identifies a file's state at one moment: size, modification time and inode (the content
/// hash is taken separately, only when a file is about to be rewritten).
public struct FileSnapshot: Hashable, Sendable {
    public var size: Int
    public var modificationSeconds: Int
    public var modificationNanoseconds: Int
    public var inode: UInt64
    public var mode: UInt32
}

extension FileSnapshot {
    /// The snapshot of a file whose `stat` is `status` and whose contents are `size` bytes.
    init(_ status: stat, size: Int) {
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        self.init(size: size, modificationSeconds: Int(modified.tv_sec), modificationNanoseconds: Int(modified.tv_nsec),
                  inode: UInt64(status.st_ino), mode: UInt32(status.st_mode))
    }
}

/// Why a file was not searched.
public enum FileSkip: Error, Sendable, CustomStringConvertible {
    /// The file could not be read: the system's reason.
    case unreadable(String)
    /// A NUL byte in the first block: a binary file.
    case binary
    /// Not valid UTF-8; the offset of the first bad byte.
    case invalidUTF8(offset: Int)

    public var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .binary: "binary file (NUL byte in the first block); skipped"
        case .invalidUTF8(let offset): "not valid UTF-8 (first bad byte at offset \(offset)); skipped, left untouched"
        }
    }
}

#if canImport(Glibc)
let systemRead = Glibc.read
let systemWrite = Glibc.write
#else
let systemRead = Darwin.read
let systemWrite = Darwin.write
#endif

/// 64-bit FNV-1a, for detecting that a file changed between reading and writing.
func contentHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var index = 0
    // Eight bytes a step keeps this cheap next to the search itself.
    while index + 8 <= bytes.count {
        var word: UInt64 = 0
        memcpy(&word, bytes.baseAddress! + index, 8)
        hash = (hash ^ word) &* 0x0000_0100_0000_01B3
        index += 8
    }
    while index < bytes.count {
        hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
        index += 1
    }
    return hash
}

extension FileContent {
    /// The size of the block checked for NUL bytes.
    public static let binaryProbeBytes = 8192

    /// Files at least this large are memory-mapped when reading for search only: mapping avoids
    /// copying from the page cache, which costs ~1 ms per MB on the machines measured.
    public static let mapThreshold = 1 << 20

    /// Reads a file, rejecting binary and invalid UTF-8 content. With `allowMapping`, large files
    /// are memory-mapped instead of copied (for searching only: a mapping may change if another
    /// program writes the file, so replacements always work on a private copy).
    public static func read(path: String, allowMapping: Bool = false) -> Result<FileContent, FileSkip> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return .failure(.unreadable("is a directory")) }
        if allowMapping && (status.st_mode & S_IFMT) == S_IFREG && Int(status.st_size) >= mapThreshold {
            if let mapped = map(descriptor, status: status) { return mapped }
        }
        var capacity = max(Int(status.st_size), 0)
        var base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity, 1))
        var length = 0
        var probed = false
        while true {
            if !probed && length >= min(capacity, binaryProbeBytes) {
                // Check the first block before reading the rest: binary files are skipped early.
                probed = true
                if memchr(base, 0, min(length, binaryProbeBytes)) != nil {
                    base.deallocate()
                    return .failure(.binary)
                }
            }
            if length == capacity {
                // The file grew (or is a pipe): make room.
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, 65536))
                bigger.update(from: base, count: length)
                base.deallocate()
                base = bigger
                capacity = max(capacity * 2, 65536)
            }
            let got = systemRead(descriptor, base + length, capacity - length)
            if got > 0 {
                length += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno))
                base.deallocate()
                return .failure(.unreadable(reason))
            }
        }
        let bytes = UnsafeBufferPointer(start: base, count: length)
        if memchr(base, 0, min(length, binaryProbeBytes)) != nil {
            base.deallocate()
            return .failure(.binary)
        }
        if let offset = InvalidUTF8Error.firstInvalidOffset(in: bytes) {
            base.deallocate()
            return .failure(.invalidUTF8(offset: offset))
        }
        let snapshot = FileSnapshot(status, size: length)
        return .success(FileContent(text: ContiguousText(adoptingValidUTF8: base, count: length), snapshot: snapshot))
    }
}

extension FileContent {
    private static func map(_ descriptor: Int32, status: stat) -> Result<FileContent, FileSkip>? {
        let length = Int(status.st_size)
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_POPULATE
        #else
        let flags = MAP_PRIVATE
        #endif
        guard let address = mmap(nil, length, PROT_READ, flags, descriptor, 0), address != MAP_FAILED else { return nil }
        let base = address.assumingMemoryBound(to: UInt8.self)
        let release: @Sendable () -> Void = { [address = UInt(bitPattern: address)] in
            munmap(UnsafeMutableRawPointer(bitPattern: address), length)
        }
        if memchr(base, 0, min(length, binaryProbeBytes)) != nil {
            release()
            return .failure(.binary)
        }
        if let offset = InvalidUTF8Error.firstInvalidOffset(in: UnsafeBufferPointer(start: base, count: length)) {
            release()
            return .failure(.invalidUTF8(offset: offset))
        }
        let snapshot = FileSnapshot(status, size: length)
        return .success(FileContent(text: ContiguousText(unsafeValidUTF8: base, count: length, release: release), snapshot: snapshot))
    }

    /// Reads a file's bytes with no checks (to re-verify a file before replacing it).
    static func readRaw(path: String) -> Result<[UInt8], FileSkip> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        let (bytes, error) = Console.readToEnd(descriptor)
        if let error { return .failure(.unreadable(String(cString: strerror(error)))) }
        return .success(bytes)
    }
}

extension ContiguousText {
    /// Calls `body` with the text's bytes.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withContiguousStorageIfAvailable(body)!
    }
}
