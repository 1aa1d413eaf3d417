#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlKernels

/// Why a file was not rewritten.
public enum WriteFailure: Error, Sendable, CustomStringConvertible {
    /// The file changed between reading and writing; it is left as it is now.
    case changedSinceRead
    /// A system call failed.
    case system(String)

    public var description: String {
        switch self {
        case .changedSinceRead: "changed since it was read; skipped (rerun to replace in the new contents)"
        case .system(let reason): reason
        }
    }
}

/// Replaces files atomically: the new contents go to a temporary file in the same folder, which
/// is flushed to disk and renamed over the original, keeping its permissions. A crash at any moment
/// leaves the original wholly old or wholly new. On Linux the temporary file is anonymous
/// (`O_TMPFILE`) until the instant before the rename, so a crash almost never leaves one behind;
/// the rare leftover is named `.trawl-<pid>-<n>.tmp` so a later run can remove it.
public enum AtomicFile {
    static let temporaryPrefix = ".trawl-"
    static let temporarySuffix = ".tmp"
    nonisolated(unsafe) private static var counter = 0
    private static let counterLock = NSLockLike()

    /// Writes `bytes` in place of the file at `path` (a symlink is resolved and its target
    /// replaced), provided the file still matches `snapshot` and `hash`.
    public static func replace(path: String, with bytes: [UInt8], snapshot: FileSnapshot, hash: UInt64) throws(WriteFailure) {
        guard let resolved = realpath(path, nil) else { throw .system("cannot resolve path: \(String(cString: strerror(errno)))") }
        let target = String(cString: resolved)
        free(resolved)
        let directory = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        try verifyUnchanged(target, snapshot: snapshot, hash: hash)
        let mode = mode_t(snapshot.mode & 0o7777)
        // A file nobody may write is left alone, even where the process could (as root).
        if mode & 0o222 == 0 { throw .system("read-only file; left untouched") }
        let name = directory + "/" + temporaryName()

        var descriptor: Int32 = -1
        var anonymous = false
        descriptor = trawl_open_anonymous_file(directory.isEmpty ? "/" : directory, UInt32(mode))
        anonymous = descriptor >= 0
        if descriptor < 0 {
            descriptor = open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw .system("cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))") }
        }
        var linked = !anonymous
        do throws(WriteFailure) {
            try writeAll(descriptor, bytes)
            guard fchmod(descriptor, mode) == 0 else { throw .system("chmod: \(String(cString: strerror(errno)))") }
            guard fsync(descriptor) == 0 else { throw .system("fsync: \(String(cString: strerror(errno)))") }
            if anonymous {
                #if os(Linux)
                guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 else {
                    throw .system("linkat: \(String(cString: strerror(errno)))")
                }
                linked = true
                #endif
            }
            // Check once more right before the switch: an editor may have saved meanwhile.
            try verifyUnchanged(target, snapshot: snapshot, hash: hash)
            guard rename(name, target) == 0 else { throw .system("rename: \(String(cString: strerror(errno)))") }
            close(descriptor)
        } catch {
            close(descriptor)
            if linked { unlink(name) }
            throw error
        }
    }

    private static func temporaryName() -> String {
        counterLock.lock()
        counter += 1
        let number = counter
        counterLock.unlock()
        return "\(temporaryPrefix)\(getpid())-\(number)\(temporarySuffix)"
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(WriteFailure) {
        var written = 0
        let failure: Int32 = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let result = systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
                if result > 0 { written += result } else if result < 0 && errno != EINTR { return errno }
            }
            return 0
        }
        if failure != 0 { throw .system("write: \(String(cString: strerror(failure)))") }
    }

    private static func verifyUnchanged(_ path: String, snapshot: FileSnapshot, hash: UInt64) throws(WriteFailure) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system(String(cString: strerror(errno))) }
        let current = FileSnapshot(status, size: Int(status.st_size))
        guard current.size == snapshot.size, current.inode == snapshot.inode,
              current.modificationSeconds == snapshot.modificationSeconds,
              current.modificationNanoseconds == snapshot.modificationNanoseconds else { throw .changedSinceRead }
        guard case .success(let bytes) = FileContent.readRaw(path: path) else { throw .changedSinceRead }
        guard bytes.withUnsafeBufferPointer(contentHash) == hash else { throw .changedSinceRead }
    }

    /// Whether `name` is a leftover temporary file of a run that is no longer alive.
    public static func isStaleTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix), name.hasSuffix(temporarySuffix) else { return false }
        let middle = name.dropFirst(temporaryPrefix.count).dropLast(temporarySuffix.count)
        guard let dash = middle.firstIndex(of: "-"), let pid = Int32(middle[..<dash]) else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

/// A minimal lock over pthread mutexes (Foundation is not needed elsewhere in this module).
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
