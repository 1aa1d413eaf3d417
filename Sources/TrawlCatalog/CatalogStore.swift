#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlStorage

/// Where a catalog lives on disk and how it is written: `FOLDER/catalog`, the catalog as last
/// written whole (``CatalogFormat``), and `FOLDER/changes`, the items upserted and ids deleted
/// since (`CatalogChanges`), each replaced atomically; writers take `FOLDER/lock` in turn.
///
/// A few changes are recorded in a file of their size; once they are large beside the catalog
/// (an eighth of its bytes), the catalog is written whole with them and the changes go. Each step
/// replaces one file by renaming a complete new one over it, and changes name the catalog they
/// apply to, so a process killed at any point leaves the catalog it had or the new one.
public enum CatalogStore {
    /// The default folder, under the current folder's `.trawl/`.
    public static let defaultFolder: FilePath = ".trawl/catalog"

    /// The file holding the catalog stored in `folder`, as last written whole.
    public static func path(in folder: FilePath) -> FilePath { folder.appending("catalog") }

    /// The file holding the changes made since.
    static func changesPath(in folder: FilePath) -> FilePath { folder.appending("changes") }

    /// Writes `catalog` into `folder` (created with its parents when missing), atomically.
    public static func save(_ catalog: Catalog, in folder: FilePath) throws {
        try save(encoded: CatalogFormat.encoded(catalog), in: folder)
    }

    /// Writes the catalog `encoded` holds (``CatalogFormat``) into `folder` (created with its
    /// parents when missing), atomically; changes recorded for the catalog it replaces go. In
    /// the default folder, every folder on the way must be a real one, not a link.
    public static func save(encoded: CatalogFormat.Encoded, in folder: FilePath) throws {
        try withLock(in: folder) { () throws(Errno) in try replace(encoded: encoded, in: folder) }
    }

    /// Writes the catalog and removes the changes it replaces (the lock held). A process killed
    /// between the two leaves changes that name the old catalog, which are not applied.
    private static func replace(encoded: CatalogFormat.Encoded, in folder: FilePath) throws(Errno) {
        try writeAtomically(parts: encoded.parts, to: path(in: folder))
        guard changesPath(in: folder).withPlatformString({ unlink($0) }) == 0 || errno == ENOENT else { throw Errno(rawValue: errno) }
    }

    /// The most bytes a stored catalog may take (ten times a million items'): a larger one is
    /// refused before anything is allocated for it.
    static let sizeLimit = 4 << 30

    /// Reads the catalog stored in `folder`, with the changes recorded since. Each file is opened
    /// without following a link and without blocking (a FIFO or device there is refused, not
    /// waited on), and its header is read and checked before its body, whose length must be the
    /// file's. The catalog's word index and items stay in the file, mapped, and are read as
    /// searches need them (``Catalog/damage`` tells what was found damaged on the way); with
    /// changes pending, the index is read whole to apply them.
    public static func load(from folder: FilePath) throws -> Catalog {
        // The changes first: a catalog written whole after they were read holds them (their base
        // no longer matches), and changes read after the catalog could be newer than both.
        try load(from: folder, applying: try readChanges(in: folder))
    }

    /// Records `items` as upserted into the catalog stored in `folder` (a later item with an id
    /// already there replaces it), and returns how many changes are now pending; 0 when they were
    /// written into the catalog whole. Throws when `folder` holds no catalog.
    @discardableResult
    public static func upsert<Items: Sequence<CatalogItem>>(_ items: Items, in folder: FilePath) throws -> Int {
        try record(items.map { .upsert($0) }, in: folder, mergingPast: smallestMerge)
    }

    /// Records the items with `ids` as deleted from the catalog stored in `folder` (an id it does
    /// not hold is ignored), like ``upsert(_:in:)``.
    @discardableResult
    public static func delete(ids: [String], in folder: FilePath) throws -> Int {
        try record(ids.map { .delete($0) }, in: folder, mergingPast: smallestMerge)
    }

    /// Writes the catalog stored in `folder` whole, with the changes pending.
    public static func merge(in folder: FilePath) throws {
        try withLock(in: folder) { () throws in try replace(encoded: CatalogFormat.encoded(try load(from: folder)), in: folder) }
    }

    /// Changes smaller than this are never written into the catalog whole.
    static let smallestMerge = 1 << 20

    /// Records `new` changes; the catalog is written whole with them once the changes take more
    /// than `smallest` bytes and an eighth of the catalog's.
    static func record(_ new: [CatalogChanges.Change], in folder: FilePath, mergingPast smallest: Int) throws -> Int {
        try withLock(in: folder) { () throws -> Int in
            let (base, size) = try readHeader(path(in: folder))
            var changes = try readChanges(in: folder).flatMap { $0.base == base ? $0 : nil } ?? CatalogChanges(base: base)
            changes.changes += new
            let encoded = changes.encoded
            if encoded.count > max(smallest, size / 8) {
                try replace(encoded: CatalogFormat.encoded(try load(from: folder, applying: changes)), in: folder)
                return 0
            }
            try writeAtomically(parts: [encoded], to: changesPath(in: folder))
            return changes.changes.count
        }
    }

    /// The catalog stored in `folder` with `changes` applied (when they are for it).
    private static func load(from folder: FilePath, applying changes: CatalogChanges?) throws -> Catalog {
        let (file, identity) = try readStored(path(in: folder), check: CatalogFormat.checkHeader)
        var catalog = try CatalogFormat.decode(file)
        if let changes, changes.base == identity { changes.apply(to: &catalog) }
        return catalog
    }

    /// The changes recorded in `folder`, or nil when there are none.
    private static func readChanges(in folder: FilePath) throws -> CatalogChanges? {
        do {
            let (file, _) = try readStored(changesPath(in: folder)) { header, size throws(StoredFormatError) in
                try CatalogChanges.checkHeader(header, fileSize: size)
            }
            return try CatalogChanges(decoding: file.withBytes { Array($0) })
        } catch Errno.noSuchFileOrDirectory {
            return nil
        }
    }

    /// The identity (header checksum) and size of the catalog file at `file`.
    private static func readHeader(_ file: FilePath) throws -> (identity: UInt64, size: Int) {
        try openRegular(file) { descriptor, size in
            (StoredHeader.checksum(of: try checkedHeader(descriptor, size: size, check: CatalogFormat.checkHeader)), size)
        }
    }

    /// The first bytes of the open file of `size` bytes, after `check` accepted them and the size.
    private static func checkedHeader(_ descriptor: FileDescriptor, size: Int,
                                      check: ([UInt8], Int) throws(StoredFormatError) -> Void) throws -> [UInt8] {
        let header = try readExactly(descriptor.rawValue, at: 0, count: min(size, StoredHeader.length))
        try check(header, size)
        return header
    }

    /// The bytes of the stored file at `file` (mapped when large) and its header's checksum,
    /// after `check` accepted its header and size.
    private static func readStored(_ file: FilePath,
                                   check: ([UInt8], Int) throws(StoredFormatError) -> Void) throws -> (FileBytes, UInt64) {
        try openRegular(file) { descriptor, size in
            let header = try checkedHeader(descriptor, size: size, check: check)
            guard size <= sizeLimit else { throw StoredFormatError.corrupt("a file of \(size) bytes, more than any catalog holds") }
            // Mapped when large (``FileBytes``): a version 5 or 6 catalog's word index and items are
            // read where they lie, as a search needs them.
            return (try FileBytes.read(descriptor), StoredHeader.checksum(of: header))
        }
    }

    /// Calls `body` with the regular file at `file`, open without following a link or blocking,
    /// and its size.
    private static func openRegular<Result>(_ file: FilePath, _ body: (FileDescriptor, Int) throws -> Result) throws -> Result {
        let opened = file.withPlatformString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard opened >= 0 else {
            if errno == ELOOP { throw StoredFormatError.unusable("\(file): a symbolic link, not a stored catalog; refused") }
            throw Errno(rawValue: errno)
        }
        let descriptor = FileDescriptor(rawValue: opened)
        return try descriptor.closeAfter { () throws -> Result in
            var status = stat()
            guard fstat(opened, &status) == 0 else { throw Errno(rawValue: errno) }
            guard status.st_mode & S_IFMT == S_IFREG else { throw StoredFormatError.unusable("\(file): not a regular file; refused") }
            return try body(descriptor, Int(status.st_size))
        }
    }

    /// Runs `body` holding `folder`'s lock (`FOLDER/lock`, a regular file opened without
    /// following a link), so that writers take turns and none overwrites another's changes.
    private static func withLock<Result, Failure: Error>(in folder: FilePath, _ body: () throws(Failure) -> Result) throws -> Result {
        // The default folder is the tree's own, and a tree may ship `.trawl` as a link out of
        // it: nothing is written through one (a folder the user names is taken as named).
        try makeFolders(folder, followingLinks: folder != defaultFolder)
        let opened = folder.appending("lock").withPlatformString { open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
        guard opened >= 0 else { throw errno == ELOOP ? StoredFormatError.unusable("\(folder.appending("lock")): a symbolic link; refused") : Errno(rawValue: errno) }
        defer { close(opened) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw StoredFormatError.unusable("\(folder.appending("lock")): not a regular file; refused") }
        while flock(opened, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Errno(rawValue: errno) }
        }
        removeLeftovers(in: folder)
        return try body()
    }

    /// Removes the temporary files of writers killed before their rename (`catalog.PID.tmp`,
    /// `changes.PID.tmp`; a catalog's can be hundreds of megabytes): with the lock held, no
    /// writer is alive to own one.
    private static func removeLeftovers(in folder: FilePath) {
        guard let directory = folder.withPlatformString({ opendir($0) }) else { return }
        defer { closedir(directory) }
        var leftovers: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "catalog" || parts[0] == "changes", parts[2] == "tmp", !parts[1].isEmpty,
                  parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber) else { continue }
            leftovers.append(name)
        }
        for name in leftovers { _ = folder.appending(name).withPlatformString { unlink($0) } }
    }

    /// `count` bytes at `offset` of the open file, or a failure when it has fewer.
    private static func readExactly(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        guard let bytes = readBytes(descriptor, at: offset, count: count) else { throw StoredFormatError.corrupt("truncated") }
        return bytes
    }

    private static func makeFolders(_ folder: FilePath, followingLinks: Bool) throws(Errno) {
        var path = folder.root.map { FilePath(root: $0) } ?? FilePath()
        for component in folder.components {
            path.append(component)
            switch statPath(path, followLinks: followingLinks) {
            case .success(let status):
                guard status.st_mode & S_IFMT == S_IFDIR else { throw followingLinks ? .notDirectory : .tooManySymbolicLinkLevels }
            case .failure:
                guard path.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
            }
        }
    }
}
