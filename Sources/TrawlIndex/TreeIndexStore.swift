#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage
import TrawlFiles
import TrawlStorage

/// Where a tree's index lives (`ROOT/.trawl/`: the manifest `index` and its `postings-…` segment
/// files) and how it is read and written. Segments are written under new names and flushed
/// before the manifest that names them is renamed over the old one, so a crash or a kill at any
/// point leaves the old index whole; segments no longer named are removed after. Writers take
/// `.trawl/lock` first.
package enum TreeIndexStore {
    /// The folder's name (the walk never enters it).
    package static let folderName = ".trawl"
    static let manifestName = "index"

    package static func folder(_ root: FilePath) -> FilePath { root.appending(folderName) }
    /// The manifest's path: the file whose presence means the tree is indexed.
    package static func manifestPath(_ root: FilePath) -> FilePath { folder(root).appending(manifestName) }

    /// Opens the index of `root`: `nil` when there is none, a failure when it is there but unusable
    /// (truncated, corrupt, another version, a segment missing, not made by this user, not a
    /// regular file). Without `readingTables`, the segments' trigram tables are left unread (and
    /// unchecked) until a query or a merge needs them.
    package static func open(root: FilePath, readingTables: Bool = true) -> Result<StoredTreeIndex?, TreeIndexFormat.Error> {
        open(root: root, readingTables: readingTables, key: UserKey.user.mapError { .noKey($0.reason) })
    }

    /// The most bytes a manifest may take (about twenty million files): a larger one is refused
    /// before anything is allocated for it.
    static let manifestLimit = 1 << 30

    /// ``open(root:readingTables:)`` checking the manifest with `key`.
    static func open(root: FilePath, readingTables: Bool, key: Result<UserKey, TreeIndexFormat.Error>) -> Result<StoredTreeIndex?, TreeIndexFormat.Error> {
        let folder: IndexFolder
        switch IndexFolder.open(root: root, creating: false) {
        case .success(nil): return .success(nil)
        case .success(let opened?): folder = opened
        case .failure(let error): return .failure(.unusable("\(error)"))
        }
        // A refresh may replace the manifest and remove its segments between our two reads: then
        // the new manifest is read.
        for attempt in 0..<3 {
            let manifest: ReadOnlyFile
            switch folder.openFile(manifestName) {
            case .success(nil): return .success(nil)
            case .success(let opened?): manifest = opened
            case .failure(let error): return .failure(.unusable("\(error)"))
            }
            var missing = false
            do throws(TreeIndexFormat.Error) {
                let key = try key.get()
                let bytes = try readManifest(manifest)
                let stored = try StoredTreeIndex(manifest: bytes, key: key, readingTables: readingTables, segmentFile: { segment throws(TreeIndexFormat.Error) in
                    let file: ReadOnlyFile
                    switch folder.openFile(segment.name) {
                    case .success(let opened?): file = opened
                    case .success(nil):
                        missing = true
                        throw .corrupt("segment \(segment.name) missing")
                    case .failure(let error): throw .unusable("\(error)")
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

    /// A manifest's bytes: its header read and checked first, so that a file of any size that is
    /// no manifest costs a read of 36 bytes, and a body past ``manifestLimit`` is never read.
    private static func readManifest(_ file: ReadOnlyFile) throws(TreeIndexFormat.Error) -> [UInt8] {
        let header = try file.read(0, min(file.size, TreeIndexFormat.headerLength))
        let bodyLength = try TreeIndexFormat.checkHeader(header, magic: TreeIndexFormat.manifestMagic, total: file.size)
        guard bodyLength == file.size - TreeIndexFormat.headerLength else { throw .corrupt("manifest length") }
        guard file.size <= manifestLimit else { throw .corrupt("a manifest of \(file.size) bytes, more than any index holds") }
        return try file.read(0, file.size)
    }

    /// The identity of the index stored at `root` now (its manifest's header read, not checked:
    /// it only tells whether the index changed), or `nil` when there is none.
    static func storedIdentity(root: FilePath) -> UInt64? {
        guard case .success(let folder?) = IndexFolder.open(root: root, creating: false),
              case .success(let manifest?) = folder.openFile(manifestName),
              let header = try? manifest.read(0, TreeIndexFormat.headerLength) else { return nil }
        return TreeIndexFormat.identity(ofManifest: header)
    }

    /// The bytes the index of `root` takes (its manifest and segments).
    package static func byteCount(root: FilePath) -> Int {
        guard case .success(let folder?) = IndexFolder.open(root: root, creating: false) else { return 0 }
        return folder.names().reduce(0) { total, name in
            guard name == manifestName || TreeManifest.isSegmentName(name) else { return total }
            return total + (folder.size(of: name) ?? 0)
        }
    }

    /// Runs `body` with the index folder of `root` (made when missing), holding its write lock
    /// (`.trawl/lock`), so that two runs never write at once; the lock goes with the process,
    /// even when it is killed.
    static func withWriteLock<R>(root: FilePath, _ body: (IndexFolder) throws(IndexFolderError) -> R) throws(IndexFolderError) -> R {
        guard let folder = try IndexFolder.open(root: root, creating: true).get() else { throw .system(path: self.folder(root), reason: "gone") }
        return try folder.withWriteLock { () throws(IndexFolderError) in try body(folder) }
    }

    /// A fresh segment file name.
    static func newSegmentName() -> String {
        var random = SystemRandomNumberGenerator()
        let value = random.next() as UInt64
        let hex = String(value, radix: 16)
        return TreeManifest.segmentPrefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Writes `segments` (new files), then `manifest` atomically (authenticated with `key`), into
    /// `folder`, then removes the segment files `manifest` no longer names; returns the stored
    /// state's identity.
    @discardableResult
    static func save(_ manifest: TreeManifest, segments: [(name: String, bytes: [UInt8])], in folder: IndexFolder,
                     key: UserKey) throws(IndexFolderError) -> UInt64 {
        for segment in segments { try folder.writeNew(segment.name, [segment.bytes]) }
        let encoded = TreeIndexFormat.encode(manifest, key: key)
        try folder.writeAtomically(manifestName, [encoded])
        // Under the lock nothing else writes here: segments not named and temporary manifests
        // are leftovers (of runs that were killed).
        let named = Set(manifest.segments.map { $0.name })
        for name in folder.names() where (TreeManifest.isSegmentName(name) && !named.contains(name)) || (name.hasPrefix(manifestName + ".") && name.hasSuffix(".tmp")) {
            folder.remove(name)
        }
        return TreeIndexFormat.identity(ofManifest: encoded)
    }
}

/// A file opened for reading at offsets, closed when the last reader is gone (an unlinked file
/// stays readable meanwhile).
final class ReadOnlyFile: Sendable {
    let descriptor: Int32
    let size: Int

    /// The open regular file `descriptor` (closed with this), `size` bytes long.
    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    func read(_ offset: Int, _ count: Int) throws(TreeIndexFormat.Error) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= size, let bytes = readBytes(descriptor, at: offset, count: count) else {
            throw .corrupt("truncated")
        }
        return bytes
    }
}
