#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a file's state at one moment, to detect that it changed before writing it. The
/// content hash is kept separately (``FileContent/hash``).
public struct FileSnapshot: Hashable, Sendable {
    /// The size in bytes.
    public var size: Int
    /// The modification time: seconds, and nanoseconds within the second.
    public var modificationSeconds: Int
    /// The nanoseconds within ``modificationSeconds``.
    public var modificationNanoseconds: Int
    /// The device and inode: the file's identity (a rename-based save gives a new inode).
    public var device: UInt64
    /// The inode within ``device``.
    public var inode: UInt64
}

extension FileSnapshot {
    /// The snapshot of a file whose `stat` is `status` and whose contents are `size` bytes.
    init(_ status: stat, size: Int) {
        let modified = status.modificationTime
        self.init(size: size, modificationSeconds: Int(modified.tv_sec), modificationNanoseconds: Int(modified.tv_nsec),
                  device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether `status` shows the same file, unchanged in size and modification time.
    func isUnchanged(_ status: stat) -> Bool {
        let current = FileSnapshot(status, size: Int(status.st_size))
        return current.size == size && current.inode == inode && current.device == device
            && current.modificationSeconds == modificationSeconds
            && current.modificationNanoseconds == modificationNanoseconds
    }
}

/// 64-bit FNV-1a over 8-byte words, fed in pieces: detects that a file changed between reading
/// and writing. The result does not depend on how the bytes are split into pieces.
public struct ContentHasher: Sendable {
    private var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// A hasher that has seen nothing.
    public init() {}

    private mutating func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x0000_0100_0000_01B3 }

    /// Feeds the next bytes.
    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        // Finish a word left incomplete by the previous piece.
        while pendingCount > 0 && pendingCount < 8 && index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
        }
        if pendingCount == 8 {
            mix(pending)
            pending = 0
            pendingCount = 0
        }
        // Eight bytes a step keeps this cheap next to the search itself.
        while index + 8 <= bytes.count {
            var word: UInt64 = 0
            memcpy(&word, bytes.baseAddress! + index, 8)
            mix(UInt64(littleEndian: word))
            index += 8
        }
        while index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
        }
    }

    /// The hash of everything fed so far.
    public func finalize() -> UInt64 {
        var result = hash
        // The tail is mixed byte by byte, as one word would collide with a shorter text padded by zeros.
        var tail = pending
        for _ in 0..<pendingCount {
            result = (result ^ (tail & 0xFF)) &* 0x0000_0100_0000_01B3
            tail >>= 8
        }
        return result
    }

    /// The hash of `bytes`.
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = ContentHasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
