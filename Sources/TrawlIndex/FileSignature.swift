#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles

/// What `stat` says of a file, as an index records it to tell later, without reading the file,
/// whether it is still the one indexed (git decides the same way).
package struct FileSignature: Sendable, Hashable {
    package var size: Int
    /// Modification time in nanoseconds since the epoch; ``FileSignature/racy`` when it was too
    /// recent to trust.
    package var modified: Int
    /// Status change time (`ctime`) in nanoseconds: moves on a write, a chmod, a rename over it.
    package var changed: Int
    package var inode: UInt64
    /// Type and permission bits (`st_mode`): a chmod within the same timestamp tick still shows.
    package var mode: UInt32

    /// The `modified` of a file recorded within its timestamp's granularity of a change: the file
    /// may change again unseen ("racily clean" in git), so it never matches and is read next time.
    package static let racy = -1

    package init(size: Int, modified: Int, changed: Int, inode: UInt64, mode: UInt32) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.inode = inode
        self.mode = mode
    }

    /// The signature of a `stat`.
    package init(_ status: stat) {
        let modified = status.modificationTime, changed = status.changeTime
        // Wrapping: a timestamp past 2262 still gives a value to compare (never a trap).
        self.init(size: Int(status.st_size), modified: Int(modified.tv_sec) &* 1_000_000_000 &+ Int(modified.tv_nsec),
                  changed: Int(changed.tv_sec) &* 1_000_000_000 &+ Int(changed.tv_nsec), inode: UInt64(status.st_ino),
                  mode: UInt32(status.st_mode))
    }

    /// The signature of the file at `path` now (links followed), or `nil` when it cannot be stat'ed.
    package static func of(_ path: FilePath) -> FileSignature? {
        guard case .success(let status) = path.status() else { return nil }
        return FileSignature(status)
    }

    /// The signature of the file at the path with these bytes (links followed), without making a
    /// `FilePath` (a listing checks thousands).
    package static func of(pathBytes: [UInt8]) -> FileSignature? {
        var status = stat()
        let result = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) }
        }
        return result == 0 ? FileSignature(status) : nil
    }

    /// Whether `current` shows the same file, unchanged (never, when this one is racy).
    package func matches(_ current: FileSignature?) -> Bool {
        modified != FileSignature.racy && current == self
    }

    /// This signature, marked racy when the file was modified at or after `instant` (nanoseconds
    /// since the epoch). Only the modification time counts: a later write always moves it. (A
    /// same-size rewrite that also restores the old modification time within the status-change
    /// time's granularity after the `stat` would go unseen; the change time is not checked for
    /// raciness, which would make every freshly copied or touched file be read again.)
    package func checked(racyAfter instant: Int) -> FileSignature {
        var signature = self
        if modified >= instant { signature.modified = FileSignature.racy }
        return signature
    }

    /// The instant before which a change is safely visible in timestamps: two seconds ago (the
    /// coarsest timestamps in use, FAT's, are that coarse).
    package static func racyInstant() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int(now.tv_sec - 2) * 1_000_000_000 + Int(now.tv_nsec)
    }
}
