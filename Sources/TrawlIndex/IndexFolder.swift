#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage
import TrawlFiles
import TrawlStorage

/// A tree's `.trawl/` folder, opened as a real folder inside the tree and used only through its
/// descriptor: every file in it is opened without following a link (and without blocking on a
/// FIFO) and must be a regular file. A tree may ship a `.trawl` of its own: a link (to `.git`, or
/// out of the tree), a dangling `lock` link or a FIFO in it is refused, never followed, and
/// nothing is written.
final class IndexFolder: Sendable {
    let path: FilePath
    let descriptor: Int32

    private init(path: FilePath, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The `.trawl` folder of `root`: `nil` when there is none (and `creating` is false); refused
    /// when it is not a real folder.
    static func open(root: FilePath, creating: Bool) -> Result<IndexFolder?, IndexFolderError> {
        let path = root.appending(TreeIndexStore.folderName)
        let rootDescriptor = root.withPlatformString { trawl_open_folder($0) }
        guard rootDescriptor >= 0 else {
            let error = Errno(rawValue: errno)
            return error == .noSuchFileOrDirectory && !creating ? .success(nil) : .failure(.system(path: path, reason: String(cString: strerror(error.rawValue))))
        }
        defer { close(rootDescriptor) }
        let name = TreeIndexStore.folderName
        var opened = openat(rootDescriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if opened < 0 && errno == ENOENT {
            guard creating else { return .success(nil) }
            guard mkdirat(rootDescriptor, name, 0o755) == 0 || errno == EEXIST else { return .failure(.system(path: path, reason: String(cString: strerror(errno)))) }
            opened = openat(rootDescriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
        guard opened >= 0 else {
            let error = Errno(rawValue: errno)
            if error == .tooManySymbolicLinkLevels || error == .notDirectory { return .failure(.refused(path: path, what: kind(at: rootDescriptor, name))) }
            return .failure(.system(path: path, reason: String(cString: strerror(error.rawValue))))
        }
        return .success(IndexFolder(path: path, descriptor: opened))
    }

    /// What the entry `name` in the folder `folder` is, in words (for a refusal).
    private static func kind(at folder: Int32, _ name: String) -> String {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return "not a folder" }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a folder"
        case S_IFREG: return "a regular file"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    /// The regular file `name` opened for reading: `nil` when there is none; refused when it is
    /// anything else (a link, a FIFO, a device, a folder).
    func openFile(_ name: String) -> Result<ReadOnlyFile?, IndexFolderError> {
        let opened = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else {
            let error = Errno(rawValue: errno)
            if error == .noSuchFileOrDirectory { return .success(nil) }
            if error == .tooManySymbolicLinkLevels { return .failure(.refused(path: path.appending(name), what: "a symbolic link")) }
            return .failure(.system(path: path.appending(name), reason: String(cString: strerror(error.rawValue))))
        }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            return .failure(.refused(path: path.appending(name), what: IndexFolder.kind(at: descriptor, name)))
        }
        return .success(ReadOnlyFile(descriptor: opened, size: Int(status.st_size)))
    }

    /// Runs `body` holding the folder's write lock (`lock`, a regular file), so that two runs
    /// never write at once; the lock goes with the process, even when it is killed.
    func withWriteLock<R>(_ body: () throws(IndexFolderError) -> R) throws(IndexFolderError) -> R {
        let name = "lock"
        let opened = openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            let error = Errno(rawValue: errno)
            if error == .tooManySymbolicLinkLevels { throw .refused(path: path.appending(name), what: "a symbolic link") }
            throw .system(path: path.appending(name), reason: String(cString: strerror(error.rawValue)))
        }
        defer { close(opened) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .refused(path: path.appending(name), what: IndexFolder.kind(at: descriptor, name))
        }
        while flock(opened, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system(path: path.appending(name), reason: String(cString: strerror(errno))) }
        }
        return try body()
    }

    /// Writes a new file `name` (which must not exist) holding `parts`, flushed to disk.
    func writeNew(_ name: String, _ parts: [[UInt8]]) throws(IndexFolderError) {
        let opened = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw .system(path: path.appending(name), reason: String(cString: strerror(errno))) }
        let failure = Self.writeAll(opened, parts)
        close(opened)
        if let failure {
            remove(name)
            throw .system(path: path.appending(name), reason: String(cString: strerror(failure.rawValue)))
        }
    }

    /// Replaces `name` with `parts`, atomically and durably: a new file (`NAME.PID.tmp`) is written
    /// and flushed, renamed over `name` (a link there is replaced, not followed), and the folder
    /// flushed, so a crash leaves the old file or the new one, whole.
    func writeAtomically(_ name: String, _ parts: [[UInt8]]) throws(IndexFolderError) {
        let temporary = "\(name).\(getpid()).tmp"
        remove(temporary)
        try writeNew(temporary, parts)
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let error = Errno(rawValue: errno)
            remove(temporary)
            throw .system(path: path.appending(name), reason: String(cString: strerror(error.rawValue)))
        }
        _ = fsync(descriptor)
    }

    private static func writeAll(_ descriptor: Int32, _ parts: [[UInt8]]) -> Errno? {
        for part in parts {
            var written = 0
            while written < part.count {
                let count = part.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, part.count - written) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return Errno(rawValue: count < 0 ? errno : EIO) }
                written += count
            }
        }
        return fsync(descriptor) == 0 ? nil : Errno(rawValue: errno)
    }

    /// Removes `name` (a link itself, never its target).
    func remove(_ name: String) { _ = unlinkat(descriptor, name, 0) }

    /// The names in the folder.
    func names() -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0 else { return [] }
        guard let handle = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(handle) }
        rewinddir(handle)
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The size of the regular file `name`, or `nil`.
    func size(of name: String) -> Int? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
