#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles

/// Where a tree's index lives (`ROOT/.trawl/`: the manifest `index` and its `postings-…` segment
/// files) and how it is read and written. Segments are written under new names and flushed
/// before the manifest that names them is renamed over the old one, so a crash or a kill at any
/// point leaves the old index whole; segments no longer named are removed after. Writers take
/// `.trawl/lock` first.
public enum TreeIndexStore {
    /// The folder's name (the walk never enters it).
    public static let folderName = ".trawl"
    static let manifestName = "index"

    public static func folder(_ root: FilePath) -> FilePath { root.appending(folderName) }
    /// The manifest's path: the file whose presence means the tree is indexed.
    public static func manifestPath(_ root: FilePath) -> FilePath { folder(root).appending(manifestName) }

    /// Opens the index of `root`: `nil` when there is none, a failure when it is there but unusable
    /// (truncated, corrupt, another version, a segment missing). Without `readingTables`, the
    /// segments' trigram tables are left unread (and unchecked) until a query or a merge needs them.
    public static func open(root: FilePath, readingTables: Bool = true) -> Result<StoredTreeIndex?, TreeIndexFormat.Error> {
        // A refresh may replace the manifest and remove its segments between our two reads: then
        // the new manifest is read.
        for attempt in 0..<3 {
            guard let manifest = ReadOnlyFile(manifestPath(root)) else { return .success(nil) }
            let bytes: [UInt8]
            do { bytes = try manifest.read(0, manifest.size) } catch { return .failure(error) }
            var missing = false
            do {
                let stored = try StoredTreeIndex(manifest: bytes, readingTables: readingTables, segmentFile: { segment throws(TreeIndexFormat.Error) in
                    guard let file = ReadOnlyFile(folder(root).appending(segment.name)) else {
                        missing = true
                        throw .corrupt("segment \(segment.name) missing")
                    }
                    guard file.size == segment.size else { throw .corrupt("segment \(segment.name) length") }
                    return ({ offset, count throws(TreeIndexFormat.Error) in try file.read(offset, count) },
                            { offset, count in offset + count <= file.size ? StoredBytes(mapping: file.descriptor, offset: offset, count: count) : nil })
                })
                return .success(stored)
            } catch {
                if missing && attempt < 2 { continue }
                return .failure(error)
            }
        }
        return .failure(.corrupt("unreadable"))
    }

    /// The identity of the index stored at `root` now (its manifest's header read, not checked:
    /// it only tells whether the index changed), or `nil` when there is none.
    static func storedIdentity(root: FilePath) -> UInt64? {
        guard let manifest = ReadOnlyFile(manifestPath(root)), let header = try? manifest.read(0, TreeIndexFormat.headerLength) else { return nil }
        return TreeIndexFormat.identity(ofManifest: header)
    }

    /// The bytes the index of `root` takes (its manifest and segments).
    public static func byteCount(root: FilePath) -> Int {
        guard case .success(let entries) = folder(root).directoryEntries() else { return 0 }
        return entries.reduce(0) { total, entry in
            let name = String(decoding: entry.name, as: UTF8.self)
            guard name == manifestName || TreeManifest.isSegmentName(name),
                  case .success(let status) = folder(root).appending(name).status() else { return total }
            return total + Int(status.st_size)
        }
    }

    /// Creates the index folder if it is missing (before a walk: the root's entries then already
    /// hold it).
    static func makeFolder(root: FilePath) throws(Errno) {
        let folder = folder(root)
        if case .failure = folder.status() {
            guard folder.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
        }
    }

    /// Runs `body` holding the index's write lock (`.trawl/lock`), so that two runs never write at
    /// once; the lock goes with the process, even when it is killed.
    static func withWriteLock<R>(root: FilePath, _ body: () throws(Errno) -> R) throws(Errno) -> R {
        try makeFolder(root: root)
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(folder(root).appending("lock"), .readWrite, options: [.create, .closeOnExec],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw error as? Errno ?? .ioError
        }
        defer { try? descriptor.close() }
        while flock(descriptor.rawValue, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Errno(rawValue: errno) }
        }
        return try body()
    }

    /// A fresh segment file name.
    static func newSegmentName() -> String {
        var random = SystemRandomNumberGenerator()
        let value = random.next() as UInt64
        let hex = String(value, radix: 16)
        return TreeManifest.segmentPrefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes `segments` (new files), then `manifest` atomically, then removes the segment files
    /// `manifest` no longer names; returns the stored state's identity.
    @discardableResult
    static func save(_ manifest: TreeManifest, segments: [(name: String, bytes: [UInt8])], root: FilePath) throws(Errno) -> UInt64 {
        try makeFolder(root: root)
        let folder = folder(root)
        for segment in segments {
            try writeDurably([segment.bytes], to: folder.appending(segment.name), exclusive: true)
        }
        let encoded = TreeIndexFormat.encode(manifest)
        try writeAtomically(encoded, to: manifestPath(root))
        // Under the lock nothing else writes here: segments not named and temporary manifests
        // are leftovers (of runs that were killed).
        let named = Set(manifest.segments.map { $0.name })
        if case .success(let entries) = folder.directoryEntries() {
            for entry in entries {
                let name = String(decoding: entry.name, as: UTF8.self)
                if (TreeManifest.isSegmentName(name) && !named.contains(name)) || (name.hasPrefix(manifestName + ".") && name.hasSuffix(".tmp")) {
                    _ = folder.appending(name).withPlatformString { unlink($0) }
                }
            }
        }
        return TreeIndexFormat.identity(ofManifest: encoded)
    }

    /// Replaces the file at `path` with `bytes`, atomically and durably: a temporary file in the
    /// same folder (`NAME.PID.tmp`) is written and synced, renamed over `path`, and the folder
    /// synced, so a crash leaves the old file or the new one, whole.
    public static func writeAtomically(_ bytes: [UInt8], to path: FilePath) throws(Errno) {
        try writeAtomically(parts: [bytes], to: path)
    }

    /// ``writeAtomically(_:to:)`` of `parts` back to back, each written as it is.
    public static func writeAtomically(parts: [[UInt8]], to path: FilePath) throws(Errno) {
        let temporary = path.removingLastComponent().appending("\(path.lastComponent?.string ?? "index").\(getpid()).tmp")
        try writeDurably(parts, to: temporary, exclusive: false)
        let renamed = temporary.withPlatformString { from in path.withPlatformString { to in rename(from, to) } }
        guard renamed == 0 else {
            let code = errno
            _ = temporary.withPlatformString { unlink($0) }
            throw Errno(rawValue: code)
        }
        // The rename itself made durable.
        if let directory = try? FileDescriptor.open(path.removingLastComponent().isEmpty ? "." : path.removingLastComponent(), .readOnly) {
            _ = fsync(directory.rawValue)
            try? directory.close()
        }
    }

    private static func writeDurably(_ parts: [[UInt8]], to path: FilePath, exclusive: Bool) throws(Errno) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: exclusive ? [.create, .exclusiveCreate] : [.create, .truncate],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw error as? Errno ?? .ioError
        }
        let written: Errno? = {
            for part in parts {
                let failure: Errno? = part.withUnsafeBytes { buffer in
                    do throws(Errno) { try descriptor.writeAll(buffer) } catch { return error }
                    return nil
                }
                if let failure { return failure }
            }
            return fsync(descriptor.rawValue) == 0 ? nil : Errno(rawValue: errno)
        }()
        try? descriptor.close()
        if let written {
            _ = path.withPlatformString { unlink($0) }
            throw written
        }
    }
}

/// A file opened for reading at offsets, closed when the last reader is gone (an unlinked file
/// stays readable meanwhile).
final class ReadOnlyFile: Sendable {
    let descriptor: Int32
    let size: Int

    init?(_ path: FilePath) {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    func read(_ offset: Int, _ count: Int) throws(TreeIndexFormat.Error) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= size else { throw .corrupt("truncated") }
        // Not zeroed first: a table is megabytes, read at every search.
        var got = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while got < count {
                let n = pread(descriptor, buffer.baseAddress! + got, count - got, off_t(offset + got))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
            // A short read (the file shrank) is refused below; the bytes never read are not kept.
            initialized = got
        }
        guard got == count else { throw .corrupt("truncated") }
        return bytes
    }
}
