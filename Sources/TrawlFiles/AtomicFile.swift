#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import Synchronization
import SystemPackage
import TrawlText
import TrawlStorage

/// Why a file was not rewritten. In every case the file is left exactly as it is now.
public enum WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file changed between reading and writing (another program or run saved it).
    case changedSinceRead
    /// The path no longer names a regular file.
    case notRegular(kind: String)
    /// The file has other hard links, which a rewrite would split from it.
    case hardLinked(count: Int)
    /// Nobody may write the file (no write permission bit).
    case readOnly
    /// A system call failed.
    case system(operation: String, reason: String)
    /// Other programs changed the file while it was being switched; one of their versions is in
    /// place and the other was kept at the path given, so nothing is lost.
    case concurrentChange(keptAt: String)

    /// What failed and why, for a message.
    public var description: String {
        switch self {
        case .changedSinceRead: "changed since it was read; left as it is now (rerun to replace in the new contents)"
        case .notRegular(let kind): "not a regular file (\(kind)); left alone"
        case .hardLinked(let count): "has \(count) hard links; left untouched (--break-hardlinks writes it as a file of its own)"
        case .readOnly: "read-only file; left untouched"
        case .system(let operation, let reason): "\(operation): \(reason); left untouched"
        case .concurrentChange(let path): "other programs changed the file while it was written; the latest stays, the one before it is kept at \(path)"
        }
    }
}

/// How ``AtomicFile/replace(path:expecting:hash:policy:contents:)`` treats what it cannot keep.
public struct WritePolicy: Sendable {
    /// Rewrite a file with several hard links as a file of its own (its other names keep the old
    /// contents). Off by default: such a file is reported and left untouched.
    public var breaksHardLinks = false
    /// Where the versions the writes displace are held open until the holder settles (a run's end),
    /// so that a program that still had a file open and wrote to it after the switch is caught;
    /// `nil`: each is removed at once.
    public var displacedFiles: DisplacedFiles?

    /// A policy; by default hard-linked files are left alone, and displaced versions removed at once.
    public init(breaksHardLinks: Bool = false, displacedFiles: DisplacedFiles? = nil) {
        self.breaksHardLinks = breaksHardLinks
        self.displacedFiles = displacedFiles
    }
}

/// Buffered writing of a new file's contents.
public struct FileWriter: ~Copyable {
    fileprivate let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    private static let capacity = 1 << 20

    fileprivate init(descriptor: FileDescriptor, expectedSize: Int) {
        self.descriptor = descriptor
        buffer.reserveCapacity(min(Self.capacity, expectedSize + 4096))
    }

    /// Appends bytes to the file.
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(WriteFailure) {
        if buffer.count + bytes.count > Self.capacity { try flush() }
        if bytes.count >= Self.capacity {
            try Self.write(descriptor, UnsafeRawBufferPointer(bytes))
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Appends bytes to the file.
    public mutating func write(_ bytes: [UInt8]) throws(WriteFailure) {
        let result = bytes.withUnsafeBufferPointer { pointer in Result { () throws(WriteFailure) in try write(pointer) } }
        try result.get()
    }

    fileprivate mutating func flush() throws(WriteFailure) {
        guard !buffer.isEmpty else { return }
        let result = buffer.withUnsafeBytes { raw in Result { () throws(WriteFailure) in try Self.write(descriptor, raw) } }
        try result.get()
        buffer.removeAll(keepingCapacity: true)
    }

    private static func write(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(WriteFailure) {
        do throws(Errno) {
            try writeAll(descriptor, bytes)
        } catch {
            throw .system(operation: "write", reason: systemMessage(error.rawValue))
        }
    }
}

/// Replaces files atomically and never over someone else's change.
///
/// The new contents go to a temporary file in the same folder (anonymous `O_TMPFILE` on Linux
/// until the instant it is named), which is flushed to disk and given the original's mode, owner
/// and group. It is then *exchanged* with the original in one atomic step (`renameat2` with
/// `RENAME_EXCHANGE`; `renamex_np` with `RENAME_SWAP` on Apple platforms), and what was swapped
/// out is checked: if it is not exactly the file that was read (inode, size, time and content
/// hash) another writer got in first, and the exchange is undone, so their version stays. Where
/// the file system cannot exchange, the check runs just before a plain `rename` (a window of
/// microseconds). A crash at any moment leaves the file wholly old or wholly new; the rare
/// leftover temporary file is named `.trawl-<pid>-<n>-<tag>.tmp`, the tag proving to a later run
/// that Trawl made it for this user, so that the run can remove it (and nothing else).
public enum AtomicFile {
    /// Called (by tests) just after a switch put the new file in place, before what it swapped
    /// out is checked: with the target and the name that now holds what was in place, to act as
    /// another program would in that instant.
    static let afterExchange = Mutex<(@Sendable (_ target: FilePath, _ swappedOut: FilePath) -> Void)?>(nil)

    /// How the names of temporary files begin (a walk leaves such files out).
    public static let temporaryPrefix = ".trawl-"
    static let temporarySuffix = ".tmp"
    private static let counter = Counter()

    /// Writes new contents in place of the regular file at `path` (a symlink is resolved and its
    /// target replaced), provided the file is still the one `snapshot` and `hash` describe.
    /// `contents` writes the new bytes. Returns notes on what could not be kept (such as the owner).
    @discardableResult
    public static func replace(path: FilePath, expecting snapshot: FileSnapshot, hash: UInt64, policy: WritePolicy = WritePolicy(),
                               contents: (inout FileWriter) throws -> Void) throws -> [String] {
        let target = try resolve(path)
        // Resolved, so absolute: a folder and a name.
        let bytes = target.bytes
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash + 1 < bytes.count else { throw WriteFailure.notRegular(kind: "directory") }
        let opened = openPath(FilePath(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash])), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { throw WriteFailure.system(operation: "cannot open the folder", reason: systemMessage(errno)) }
        return try replace(in: FileDescriptor(rawValue: opened), name: Array(bytes[(slash + 1)...]), shownAs: target,
                           expecting: snapshot, hash: hash, policy: policy, contents: contents)
    }

    /// Writes new contents in place of a walked file, as ``replace(path:expecting:hash:policy:contents:)``
    /// does; a file with an anchor (a walk that follows no link) is written in the folder it was
    /// found in, reached from the anchor without following links, so that a name swapped for a
    /// link since the walk is refused rather than followed outside the tree.
    @discardableResult
    public static func replace(_ file: WalkedFile, expecting snapshot: FileSnapshot, hash: UInt64, policy: WritePolicy = WritePolicy(),
                               contents: (inout FileWriter) throws -> Void) throws -> [String] {
        guard let anchor = file.anchor, let relative = anchor.relative(file.path) else {
            return try replace(path: file.path, expecting: snapshot, hash: hash, policy: policy, contents: contents)
        }
        switch anchor.openFolder(holding: relative) {
        case .success(let (folder, name)):
            return try replace(in: folder, name: name, shownAs: file.path, expecting: snapshot, hash: hash, policy: policy, contents: contents)
        case .failure(let error) where error == .tooManySymbolicLinkLevels:
            throw WriteFailure.notRegular(kind: "a symbolic link on its path")
        case .failure(let error):
            throw WriteFailure.system(operation: "cannot open the folder", reason: systemMessage(error.rawValue))
        }
    }

    /// The rewrite of `name` in the open `folder` (closed here), everything relative to it.
    private static func replace(in folder: FileDescriptor, name target: [UInt8], shownAs shown: FilePath, expecting snapshot: FileSnapshot,
                                hash: UInt64, policy: WritePolicy, contents: (inout FileWriter) throws -> Void) throws -> [String] {
        defer { try? folder.close() }
        // The file as it is: opened without following a link, so the status, the attributes and
        // what is replaced are one file's.
        let original: FileDescriptor
        switch open(folder, target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) {
        case .success(let opened): original = opened
        case .failure(let error) where error == .tooManySymbolicLinkLevels: throw WriteFailure.notRegular(kind: "symbolic link")
        case .failure(let error) where error == .noSuchFileOrDirectory: throw WriteFailure.changedSinceRead
        case .failure(let error): throw WriteFailure.system(operation: "open", reason: systemMessage(error.rawValue))
        }
        defer { try? original.close() }
        let status: stat
        switch statDescriptor(original) {
        case .success(let value): status = value
        case .failure(let error): throw WriteFailure.system(operation: "stat", reason: systemMessage(error.rawValue))
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw WriteFailure.notRegular(kind: fileKind(status.st_mode)) }
        guard snapshot.isUnchanged(status) else { throw WriteFailure.changedSinceRead }
        if status.st_nlink > 1 && !policy.breaksHardLinks { throw WriteFailure.hardLinked(count: Int(status.st_nlink)) }
        // Mode, owner and group as they are now (a chmod since the read leaves the mtime alone).
        let mode = mode_t(status.st_mode & 0o7777)
        // A file nobody may write is left alone, even where the process could (as root).
        if mode & 0o222 == 0 { throw WriteFailure.readOnly }

        let name = Array(temporaryName().utf8)
        let (descriptor, named) = try createTemporary(in: folder, name: name, mode: mode, shownIn: shown.removingLastComponent())
        var linked = named
        var open = true
        var notes: [String] = []
        do {
            var writer = FileWriter(descriptor: descriptor, expectedSize: snapshot.size)
            try contents(&writer)
            try writer.flush()
            notes += keepOwnership(descriptor, owner: UInt32(status.st_uid), group: UInt32(status.st_gid))
            // After fchown, which clears set-user-ID and set-group-ID bits.
            guard fchmod(descriptor.rawValue, mode) == 0 else { throw WriteFailure.system(operation: "chmod", reason: systemMessage(errno)) }
            notes += keepExtendedAttributes(of: original, on: descriptor)
            guard fsync(descriptor.rawValue) == 0 else { throw WriteFailure.system(operation: "fsync", reason: systemMessage(errno)) }
            if !named {
                guard withNameString(name, { trawl_link_descriptor_at(descriptor.rawValue, folder.rawValue, $0) }) == 0 else {
                    throw WriteFailure.system(operation: "linkat", reason: systemMessage(errno))
                }
                linked = true
            }
            let written: stat
            switch statDescriptor(descriptor) {
            case let .success(found): written = found
            case let .failure(error): throw WriteFailure.system(operation: "stat", reason: systemMessage(error.rawValue))
            }
            open = false
            try? descriptor.close()
            // From here on the temporary name is swapIn's to remove.
            linked = false
            try swapIn(Switch(folder: folder, temporary: name, target: target, shown: shown),
                       written: FileSnapshot(written, size: Int(written.st_size)), snapshot: snapshot, hash: hash, holder: policy.displacedFiles)
        } catch {
            // Closed once only: a second close could close another thread's new descriptor.
            if open { try? descriptor.close() }
            if linked { unlink(folder, name) }
            throw error
        }
        return notes
    }

    /// The names a switch works on, in one open folder.
    private struct Switch {
        let folder: FileDescriptor
        /// The temporary file's name, holding the new contents.
        let temporary: [UInt8]
        /// The name of the file replaced.
        let target: [UInt8]
        /// The target's path, for messages and the test hook.
        let shown: FilePath

        var shownTemporary: FilePath { shown.removingLastComponent().appending(name: temporary) }
    }

    /// Puts the temporary file in place of the target if the target is still the file that was
    /// read. On success nothing is left at the temporary name; on failure it holds the new
    /// contents, removed here.
    ///
    /// Writers of this library take the folder's lock (`flock`) for the switch, so they never
    /// undo each other's exchanges; other programs are caught by the check of what was swapped out.
    private static func swapIn(_ names: Switch, written: FileSnapshot, snapshot: FileSnapshot, hash: UInt64, holder: DisplacedFiles?) throws(WriteFailure) {
        let folder = names.folder
        let newInode = written.inode
        while flock(folder.rawValue, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(folder.rawValue, LOCK_UN) }
        let exchanged = withNameString(names.temporary) { from in withNameString(names.target) { to in trawl_exchange_at(folder.rawValue, from, to) } }
        if exchanged != 0 {
            let code = errno
            guard code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP else {
                unlink(folder, names.temporary)
                if code == ENOENT { throw .changedSinceRead } // deleted meanwhile
                throw .system(operation: "rename", reason: systemMessage(code))
            }
            // No exchange here: check, then rename (a window of microseconds, not of the whole run).
            guard let checked = openIfFile(names.target, in: folder, snapshot: snapshot, hash: hash) else {
                unlink(folder, names.temporary)
                throw .changedSinceRead
            }
            try? checked.descriptor.close()
            guard rename(in: folder, names.temporary, to: names.target) else {
                let reason = systemMessage(errno)
                unlink(folder, names.temporary)
                throw .system(operation: "rename", reason: reason)
            }
            return
        }
        if let hook = afterExchange.withLock({ $0 }) { hook(names.shown, names.shownTemporary) }
        // The temporary name now holds what was at the target an instant ago: it must be the
        // file that was read.
        if let displaced = openIfFile(names.temporary, in: folder, snapshot: snapshot, hash: hash) {
            unlink(folder, names.temporary)
            // Held open a while when asked (nameless: a killed run leaves nothing behind): a
            // program that had the file open may still write to it.
            if let holder {
                holder.hold(displaced.descriptor, status: displaced.status, folder: folder.rawValue, target: names.target, shown: names.shown)
            } else {
                try? displaced.descriptor.close()
            }
            return
        }
        // Another program's version: put it back, if our file is still the one in place.
        guard case .success(let current) = statAt(folder, names.target), UInt64(current.st_ino) == newInode else {
            // A third writer replaced ours meanwhile: theirs stays, and the version we displaced
            // is kept beside it (under a name no cleanup removes) rather than lost.
            throw .concurrentChange(keptAt: keepAside(names))
        }
        let undone = withNameString(names.temporary) { from in withNameString(names.target) { to in trawl_exchange_at(folder.rawValue, from, to) } }
        guard undone == 0 else { throw .concurrentChange(keptAt: keepAside(names)) }
        // Ours should be back at the temporary name, as written: a program that opened the file
        // by its name while ours was in place may have written to ours (an appender, say), and a
        // third writer may have put its own there; either is kept.
        if case .success(let back) = statAt(folder, names.temporary), written.isUnchanged(back) {
            unlink(folder, names.temporary)
            throw .changedSinceRead
        }
        throw .concurrentChange(keptAt: keepAside(names))
    }

    /// Renames the temporary file to `<target>.trawl-conflict-<pid>-<n>` (which later runs never
    /// remove) and returns its path, for a version that must not be lost.
    private static func keepAside(_ names: Switch) -> String {
        let kept = names.target + Array(".trawl-conflict-\(getpid())-\(nextSerial())".utf8)
        let moved = rename(in: names.folder, names.temporary, to: kept)
        return names.shown.removingLastComponent().appending(name: moved ? kept : names.temporary).bytesDescription
    }

    /// `name` in `folder`, open, with its status, when it is the regular file `snapshot`
    /// describes, with content hash `hash`; `nil` when it is not.
    private static func openIfFile(_ name: [UInt8], in folder: FileDescriptor, snapshot: FileSnapshot,
                                   hash: UInt64) -> (descriptor: FileDescriptor, status: stat)? {
        guard case .success(let descriptor) = open(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return nil }
        guard case .success(let status) = statDescriptor(descriptor), status.st_mode & S_IFMT == S_IFREG,
              snapshot.isUnchanged(status), hashOfFile(descriptor, size: snapshot.size) == hash else {
            try? descriptor.close()
            return nil
        }
        return (descriptor, status)
    }

    /// The content hash of an open file that should be `size` bytes long (`nil` if it is not).
    /// Read a megabyte at a time, not mapped: mapped pages would count against the process's
    /// resident memory, which a rewrite keeps to the file's size plus a little.
    static func hashOfFile(_ descriptor: FileDescriptor, size: Int) -> UInt64? {
        var hasher = ContentHasher()
        // Sized to the file (plus one byte, to see that it ends there), a megabyte at most.
        var buffer = [UInt8](repeating: 0, count: min(size + 1, 1 << 20))
        var total = 0
        while true {
            guard let got = try? buffer.withUnsafeMutableBytes({ try descriptor.read(into: $0) }) else { return nil }
            if got == 0 { break }
            total += got
            buffer.withUnsafeBufferPointer { hasher.update(UnsafeBufferPointer(rebasing: $0[..<got])) }
        }
        return total == size ? hasher.finalize() : nil
    }

    private static func resolve(_ path: FilePath) throws(WriteFailure) -> FilePath {
        guard let resolved = path.resolved() else { throw .system(operation: "cannot resolve the path", reason: systemMessage(errno)) }
        return resolved
    }

    private static func createTemporary(in folder: FileDescriptor, name: [UInt8], mode: mode_t, shownIn shown: FilePath) throws(WriteFailure) -> (FileDescriptor, named: Bool) {
        let anonymous = trawl_open_anonymous_file_at(folder.rawValue, UInt32(mode & 0o777))
        if anonymous >= 0 { return (FileDescriptor(rawValue: anonymous), false) }
        switch open(folder, name, O_CREAT | O_EXCL | O_WRONLY, mode: mode & 0o777) {
        case .success(let descriptor): return (descriptor, true)
        case .failure(let error):
            throw .system(operation: "cannot create a temporary file in \(shown.bytesDescription)", reason: systemMessage(error.rawValue))
        }
    }

    /// `openat` of `name` in `folder`.
    private static func open(_ folder: FileDescriptor, _ name: [UInt8], _ flags: Int32, mode: mode_t = 0) -> Result<FileDescriptor, Errno> {
        let opened = withNameString(name) { openat(folder.rawValue, $0, flags | O_CLOEXEC, mode) }
        return opened >= 0 ? .success(FileDescriptor(rawValue: opened)) : .failure(Errno(rawValue: errno))
    }

    /// `fstatat` of `name` in `folder`, not following a link.
    private static func statAt(_ folder: FileDescriptor, _ name: [UInt8]) -> Result<stat, Errno> {
        var status = stat()
        let result = withNameString(name) { fstatat(folder.rawValue, $0, &status, AT_SYMLINK_NOFOLLOW) }
        return result == 0 ? .success(status) : .failure(Errno(rawValue: errno))
    }

    private static func unlink(_ folder: FileDescriptor, _ name: [UInt8]) {
        _ = withNameString(name) { unlinkat(folder.rawValue, $0, 0) }
    }

    private static func rename(in folder: FileDescriptor, _ from: [UInt8], to: [UInt8]) -> Bool {
        withNameString(from) { from in withNameString(to) { to in renameat(folder.rawValue, from, folder.rawValue, to) } } == 0
    }

    /// Gives the new file the original's owner and group where the process may; notes what it could not keep.
    private static func keepOwnership(_ descriptor: FileDescriptor, owner: UInt32, group: UInt32) -> [String] {
        guard case let .success(status) = statDescriptor(descriptor) else { return [] }
        if status.st_uid == owner && status.st_gid == group { return [] }
        if fchown(descriptor.rawValue, uid_t(owner), gid_t(group)) == 0 { return [] }
        // Not allowed to give the file away: keep at least the group when we are a member of it.
        let groupKept = status.st_gid == group || fchown(descriptor.rawValue, uid_t.max, gid_t(group)) == 0
        // Each note names what was not kept, and only that.
        var notes: [String] = []
        if status.st_uid != owner { notes.append("owner \(owner) could not be kept (now \(status.st_uid))") }
        if !groupKept { notes.append("group \(group) could not be kept (now \(status.st_gid))") }
        return notes
    }

    /// Gives the new file the original's extended attributes (user attributes, POSIX ACLs, a
    /// security label where the process may set it); notes each it could not keep.
    private static func keepExtendedAttributes(of original: FileDescriptor, on descriptor: FileDescriptor) -> [String] {
        let source = original.rawValue
        var names = [CChar](repeating: 0, count: 1024)
        var length = -1
        while true {
            length = names.withUnsafeMutableBufferPointer { listAttributes(source, $0.baseAddress, $0.count) }
            // The list grew since it was measured, or is longer than the buffer: measure again.
            guard length < 0, errno == ERANGE else { break }
            let needed = listAttributes(source, nil, 0)
            guard needed > 0 else {
                length = needed
                break
            }
            names = [CChar](repeating: 0, count: needed)
        }
        if length < 0 {
            // A file system without attributes has none to keep.
            if errno == ENOTSUP || errno == EOPNOTSUPP { return [] }
            return ["extended attributes could not be listed (\(systemMessage(errno)))"]
        }
        var notes: [String] = []
        var start = 0
        // Each name as listed (NUL-terminated bytes, not necessarily UTF-8), used as it is.
        while start < length {
            var end = start
            while end < length && names[end] != 0 { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }
            let shown = String(decoding: names[start..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let failure: String? = names.withUnsafeBufferPointer { names in
                    let name = names.baseAddress! + start
                    var size = getAttribute(source, name, nil, 0)
                    var value: [UInt8] = []
                    while size >= 0 {
                        value = [UInt8](repeating: 0, count: Swift.max(size, 1))
                        let read = value.withUnsafeMutableBytes { getAttribute(source, name, $0.baseAddress, size) }
                        // Grown since it was measured: measure again.
                        if read < 0, errno == ERANGE { size = getAttribute(source, name, nil, 0); continue }
                        size = read
                        break
                    }
                    // Removed since the list was read: nothing to keep.
                    if size < 0 { return errno == Self.noSuchAttribute ? nil : "could not be read (\(systemMessage(errno)))" }
                    let set = value.withUnsafeBytes { setAttribute(descriptor.rawValue, name, $0.baseAddress, size) }
                    return set == 0 ? nil : "could not be kept (\(systemMessage(errno)))"
            }
            if let failure { notes.append("extended attribute \(shown) \(failure)") }
        }
        return notes
    }

    #if canImport(Darwin)
    private static func listAttributes(_ file: Int32, _ names: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        flistxattr(file, names, size, 0)
    }
    private static func getAttribute(_ file: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        fgetxattr(file, name, value, size, 0, 0)
    }
    private static func setAttribute(_ descriptor: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        fsetxattr(descriptor, name, value, size, 0, 0)
    }
    private static let noSuchAttribute = ENOATTR
    #else
    private static func listAttributes(_ file: Int32, _ names: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        flistxattr(file, names, size)
    }
    private static func getAttribute(_ file: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        fgetxattr(file, name, value, size)
    }
    private static func setAttribute(_ descriptor: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        fsetxattr(descriptor, name, value, size, 0)
    }
    private static let noSuchAttribute = ENODATA
    #endif

    /// A fresh temporary name: `.trawl-<pid>-<n>-<tag>.tmp`, the tag the user's key's hash of
    /// `<pid>-<n>`, so that a later run can prove the name is one Trawl made for this user before
    /// it removes a leftover (without a key: no tag, and such leftovers are never removed).
    /// A number no other name of this process took.
    static func nextSerial() -> Int { counter.next() }

    private static func temporaryName() -> String {
        let serial = "\(getpid())-\(nextSerial())"
        guard let tag = temporaryTag(Array(serial.utf8)) else { return temporaryPrefix + serial + temporarySuffix }
        return temporaryPrefix + serial + "-" + tag + temporarySuffix
    }

    /// The tag of a temporary name's `<pid>-<n>`: 16 hex digits of its hash under the user's key.
    private static func temporaryTag(_ serial: [UInt8]) -> String? {
        guard case .success(let key) = UserKey.user else { return nil }
        let hex = String(SipHash.hash(serial[...], key: key), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether `name` is the name of a temporary file of this library, as made by
    /// ``temporaryName()`` (with or without a tag); a walk leaves such files out.
    public static func isTemporaryName(_ name: [UInt8]) -> Bool { temporaryParts(name) != nil }

    /// The `<pid>-<n>` and the tag of a temporary name, or `nil` when `name` is not exactly one.
    private static func temporaryParts(_ name: [UInt8]) -> (pid: Int32, serial: ArraySlice<UInt8>, tag: ArraySlice<UInt8>?)? {
        let prefix = Array(temporaryPrefix.utf8), suffix = Array(temporarySuffix.utf8)
        guard name.starts(with: prefix), name.count > prefix.count + suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        let middle = name[prefix.count..<(name.count - suffix.count)]
        let fields = middle.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3,
              fields[0].count <= 10, fields[1].count <= 20, fields[0...1].allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }),
              let pid = Int32(String(decoding: fields[0], as: UTF8.self)), pid > 0 else { return nil }
        if fields.count == 2 { return (pid, middle, nil) }
        let tag = fields[2]
        guard tag.count == 16, tag.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return (pid, middle[middle.startIndex..<(tag.startIndex - 1)], tag)
    }

    /// Whether `name` is a leftover temporary file this library made for this user (its tag
    /// proves it) in a run that is no longer alive: only such a file is ever removed.
    public static func isStaleTemporary(_ name: [UInt8]) -> Bool {
        guard let parts = temporaryParts(name), let tag = parts.tag, let expected = temporaryTag(Array(parts.serial)),
              tag.elementsEqual(expected.utf8) else { return false }
        return kill(parts.pid, 0) != 0 && errno == ESRCH
    }
}

/// A counter shared by the writing threads.
final class Counter: @unchecked Sendable { // guarded by `mutex`
    private var mutex = pthread_mutex_t()
    private var value = 0
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func next() -> Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        value += 1
        return value
    }
}

extension FilePath {
    /// The path for a message: its bytes as text, with invalid UTF-8 shown as `\xHH`.
    public var bytesDescription: String { PathText.escaped(bytes) }
}

/// Paths shown to people.
public enum PathText {
    /// The bytes as text; bytes that are not valid UTF-8 are shown as `\xHH`.
    public static func escaped(_ bytes: [UInt8]) -> String {
        // Decoded (repairing) and compared: the same answer as `String(validating:as:)`, whose
        // generic first use looked up type metadata at run time (a visible part of a search's start).
        let decoded = String(decoding: bytes, as: UTF8.self)
        if decoded.utf8.elementsEqual(bytes) { return decoded }
        var result = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = UTF8Bytes.scalarLength(lead: lead)
            if index + length <= bytes.count, let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                result += scalar
                index += length
            } else {
                let hex = String(lead, radix: 16, uppercase: true)
                result += "\\x" + (hex.count == 1 ? "0" : "") + hex
                index += 1
            }
        }
        return result
    }
}
