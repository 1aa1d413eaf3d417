#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlConcurrency
import TrawlNGram

/// Builds or refreshes the index of a tree (`ROOT/.trawl/`), reading only what changed.
///
/// A refresh first asks the stored listing whether a walk would find the same files (a `stat`
/// per folder and ignore file); if so it walks nothing and `stat`s the listed files, else it walks.
/// Files whose signature changed are read again into a new segment; unchanged files keep their
/// postings where they are. Segments added by refreshes are merged when there are several, and
/// the whole index is rebuilt once most file numbers are dead, so queries stay fast.
public struct TreeIndexer: Sendable {
    /// The tree's root; its index is `root/.trawl/`.
    public let root: FilePath

    /// The indexer of the tree at `root`.
    public init(root: FilePath) { self.root = root }

    /// What a run did.
    public struct Report: Sendable {
        /// Files listed (those the default walk selects), and how many of them are indexed text.
        public var files = 0
        /// How many of ``files`` are indexed text.
        public var indexed = 0
        /// The bytes of the indexed files.
        public var indexedBytes = 0
        /// Files read, and their bytes.
        public var read = 0
        /// The bytes of the files read.
        public var bytesRead = 0
        /// Whether the tree was walked (its folders changed, or there was no index).
        public var walked = false
        /// Whether anything was written (nothing is when nothing changed).
        public var written = false
        /// Whether every file was read into a new base segment.
        public var rebuilt = false
        /// Problems that make the run's outcome an error (folders that could not be read...).
        public var errors: [String] = []
        /// Worth a word, not errors (an unusable index rebuilt).
        public var notes: [String] = []
        /// The index's manifest as the run left it.
        package var manifest: TreeManifest?
        /// Which stored state that is (``StoredTreeIndex/identity``).
        public var identity: UInt64?
    }

    /// Segments added by refreshes beyond which they are merged into one.
    static let mergeThreshold = 4

    private enum Outcome: Sendable {
        case unchanged(TreeListing.File)
        case kept(ArraySlice<TreeListing.File>)
        /// The file's keys: for a new segment's builder when building, else as found.
        case indexed(path: [UInt8], signature: FileSignature, keys: [UInt32], prepared: SegmentBuilder.FileKeys?)
        case unindexed(TreeListing.File)
        case gone
    }

    private enum Item: Sendable {
        /// A file to `stat`, and to read when it is new or changed.
        case file(path: [UInt8], previous: TreeListing.File?)
        /// Listed files a sweep of `stat`s found unchanged: kept as they are.
        case unchanged(ArraySlice<TreeListing.File>)
    }

    /// Builds the index (every file read when `rebuild`, or when there is none) or refreshes it.
    /// - Throws: ``IndexFolderError``: `.trawl` or a file in it is not what Trawl makes there (a
    ///   link, a FIFO: refused, nothing written), or it cannot be written.
    public func update(rebuild: Bool = false) throws(IndexFolderError) -> Report {
        // Indexes are authenticated with the user's key: without one, none can be made.
        let key: UserKey
        switch UserKey.user {
        case .success(let found): key = found
        case .failure(let error): throw .system(path: TreeIndexStore.manifestPath(root), reason: "\(error)")
        }
        return try TreeIndexStore.withWriteLock(root: root) { (folder) throws(IndexFolderError) in
            try update(rebuild: rebuild, folder: folder, key: key)
        }
    }

    private func update(rebuild: Bool, folder: IndexFolder, key: UserKey) throws(IndexFolderError) -> Report {
        var report = Report()
        let instant = FileSignature.racyInstant()
        var old: StoredTreeIndex?
        if !rebuild {
            // A refresh reads no postings unless it merges segments: their tables are read then.
            switch TreeIndexStore.open(root: root, readingTables: false, key: .success(key)) {
            case .success(let stored): old = stored
            case .failure(.unusable(let why)): throw .refused(path: TreeIndexStore.folder(root), what: why)
            case .failure(let error): report.notes.append("\(TreeIndexStore.manifestPath(root)): \(error); building it again")
            }
        }
        let root = self.root
        typealias Found = (result: Walker.Result, directories: [TreeListing.Directory], watched: [TreeListing.Watched])
        let produce: @Sendable (_ emit: (Item) -> Void) -> Found
        if let old, let directories = old.listing.currentDirectories(root: root, racyAfter: instant) {
            let listing = old.listing, prefix = TreeIndexer.prefix(of: root)
            produce = { emit in
                // All stat'ed at once; only the changed files go to the workers, the runs of
                // unchanged ones between them are handed on whole.
                let now = SignatureSweep.current(prefix: prefix, count: listing.files.count) { listing.files[$0].path }
                var runStart = 0
                for (position, file) in listing.files.enumerated() where !file.signature.matches(now[position]) {
                    if runStart < position { emit(.unchanged(listing.files[runStart..<position])) }
                    emit(.file(path: file.path, previous: file))
                    runStart = position + 1
                }
                if runStart < listing.files.count { emit(.unchanged(listing.files[runStart...])) }
                return (Walker.Result(), directories, listing.watched)
            }
        } else {
            report.walked = true
            let previous = old.map { Dictionary($0.listing.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }) } ?? [:]
            produce = { emit in
                var directories: [TreeListing.Directory] = []
                var watched = TreeListing.watchedAbove(root: root, racyAfter: instant)
                let result = Walker(options: WalkOptions()).walk([root], visit: { file in
                    let relative = TreeIndexer.relative(file.path, to: root)
                    emit(.file(path: relative, previous: previous[relative]))
                }, visitDirectory: { path, relative, status, entries in
                    directories.append(TreeListing.Directory(path: relative, signature: FileSignature(status).checked(racyAfter: instant),
                                                             entriesHash: TreeListing.entriesHash(entries, in: path)))
                    watched += TreeListing.watched(in: relative, entries: entries, root: root, racyAfter: instant)
                })
                return (result, directories, watched)
            }
        }
        var files: [TreeListing.File] = []
        files.reserveCapacity(old?.listing.files.count ?? 0)
        var added: [(position: Int, keys: [UInt32])] = []
        // Without an old index every file is new: their keys go to the segment's builder.
        let building = old == nil
        var builder = SegmentBuilder()
        var complete = true
        let prefix = TreeIndexer.prefix(of: root)
        // Files are read from the root without following links, as a search reads them.
        let anchor = FolderAnchor(root)
        let found = processInOrder(produce: produce, work: { item -> Outcome in
            let relative: [UInt8], previous: TreeListing.File?
            switch item {
            case .unchanged(let files): return .kept(files)
            case .file(let path, let known): (relative, previous) = (path, known)
            }
            // Most files are only stat'ed: no FilePath for them.
            guard let signature = FileSignature.of(pathBytes: prefix + relative) else { return .gone }
            if let previous, previous.signature.matches(signature) { return .unchanged(previous) }
            let path = FilePath(bytes: prefix + relative)
            // Only text is indexed (as find searches it); anything else is listed, with why a
            // search would skip it (binary, not UTF-8): while it is unchanged, a search skips it
            // unread. Other files (unreadable, changed while read) are searched again.
            let content: FileContent
            switch FileContent.read(WalkedFile(path: path, isExplicit: false, anchor: anchor), for: .search(allowsMapping: true, allowsStreams: false)) {
            case .success(let read) where !read.changedWhileMapped:
                content = read
            case .failure(let skip) where skip.isRecordedInListing:
                return .unindexed(TreeListing.File(path: relative, number: nil, signature: signature.checked(racyAfter: instant), skip: skip))
            default:
                return .unindexed(TreeListing.File(path: relative, number: nil, signature: signature.checked(racyAfter: instant)))
            }
            let keys = content.text.withBytes { Trigram.distinctKeys(in: $0) }
            return .indexed(path: relative, signature: signature.checked(racyAfter: instant), keys: building ? [] : keys,
                            prepared: building ? SegmentBuilder.prepare(keys) : nil)
        }, consume: { outcome in
            switch outcome {
            case .unchanged(let file): files.append(file)
            case .kept(let kept): files += kept
            case .unindexed(let file):
                files.append(file)
                report.read += 1
            case .indexed(let path, let signature, let keys, let prepared):
                // Numbered in the order they come (as the manifest numbers them below).
                if let prepared { builder.add(prepared, number: UInt32(added.count)) }
                added.append((files.count, keys))
                files.append(TreeListing.File(path: path, number: nil, signature: signature))
                report.read += 1
                report.bytesRead += signature.size
            case .gone:
                // Its name may come back unseen by its folder's entries: the next search walks.
                complete = false
            }
        })
        report.errors = found.result.errors
        report.files = files.count
        report.indexed = files.reduce(0) { $0 + ($1.number == nil ? 0 : 1) } + added.count
        report.indexedBytes = files.reduce(0) { $0 + ($1.number == nil ? 0 : $1.signature.size) }
            + added.reduce(0) { $0 + files[$1.position].signature.size }
        let listing = TreeListing(root: root.resolved()?.bytes ?? [], isComplete: complete && found.result.errors.isEmpty,
                                  files: files, directories: found.directories, watched: found.watched)
        if let old, added.isEmpty, listing == old.listing {
            report.manifest = old.manifest
            report.identity = old.identity
            return report
        }

        // The numbers still in use (below the old index's next number): a flag per number.
        var live = [Bool](repeating: false, count: Int(old?.manifest.nextNumber ?? 0))
        var liveCount: UInt32 = 0
        for file in files {
            if let number = file.number, !live[Int(number)] {
                live[Int(number)] = true
                liveCount += 1
            }
        }
        // Every file read again, with this run's notes (and `note`) kept.
        func readingEverything(note: String? = nil) throws(IndexFolderError) -> Report {
            var again = try update(rebuild: true, folder: folder, key: key)
            again.notes = report.notes + (note.map { [$0] } ?? []) + again.notes
            return again
        }
        var segments: [(name: String, bytes: [UInt8])] = []
        var manifest: TreeManifest
        let kept = old.flatMap { old in
            // Most numbers dead: rebuilt rather than carried.
            old.manifest.nextNumber - liveCount > max(256, liveCount / 2) ? nil : old
        }
        if let old = kept {
            var next = old.manifest.nextNumber
            // The new segment: the changed files, and the live files of the later segments when
            // they are merged into it (numbered below the new ones).
            var segment = SegmentBuilder()
            var replaced = 0
            if old.manifest.segments.count > TreeIndexer.mergeThreshold {
                let merged: [(number: UInt32, keys: [UInt32])]
                do {
                    merged = try old.fileKeys(ofSegments: 1..<old.manifest.segments.count, isLive: { live[Int($0)] })
                } catch {
                    // A damaged segment (a refresh reads no table until it merges): read everything.
                    return try readingEverything(note: "\(TreeIndexStore.manifestPath(root)): \(error); building it again")
                }
                for file in merged { segment.add(SegmentBuilder.prepare(file.keys), number: file.number) }
                replaced = old.manifest.segments.count - 1
            }
            for (position, keys) in added {
                files[position].number = next
                segment.add(SegmentBuilder.prepare(keys), number: next)
                next += 1
            }
            manifest = TreeManifest(listing: TreeListing(root: listing.root, isComplete: listing.isComplete, files: files, directories: listing.directories, watched: listing.watched),
                                    segments: Array(old.manifest.segments.dropLast(replaced)), nextNumber: next)
            if !segment.isEmpty {
                let bytes = segment.encode()
                let name = TreeIndexStore.newSegmentName()
                segments.append((name, bytes))
                manifest.segments.append(TreeManifest.Segment(name: name, size: bytes.count, headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: bytes),
                                                              numberLimit: next))
            }
        } else {
            if old != nil {
                // Files kept from the old index have no keys here: read everything.
                return try readingEverything()
            }
            report.rebuilt = true
            // Numbered in the order they came, as the builder numbered them.
            for (number, entry) in added.enumerated() { files[entry.position].number = UInt32(number) }
            let bytes = builder.encode()
            let name = TreeIndexStore.newSegmentName()
            segments.append((name, bytes))
            manifest = TreeManifest(listing: TreeListing(root: listing.root, isComplete: listing.isComplete, files: files, directories: listing.directories, watched: listing.watched),
                                    segments: [TreeManifest.Segment(name: name, size: bytes.count, headerChecksum: TreeIndexFormat.headerChecksum(ofSegment: bytes),
                                                                    numberLimit: UInt32(added.count))],
                                    nextNumber: UInt32(added.count))
        }
        report.identity = try TreeIndexStore.save(manifest, segments: segments, in: folder, key: key)
        report.written = true
        report.manifest = manifest
        return report
    }

    /// The path of a walked file relative to `root`, as the listing keys it.
    public static func relative(_ path: FilePath, to root: FilePath) -> [UInt8] {
        let full = path.bytes, prefix = prefix(of: root)
        return full.starts(with: prefix) ? Array(full[prefix.count...]) : full
    }

    /// The bytes of `root` ending in one `/`: a listed file's path is this and its relative path.
    static func prefix(of root: FilePath) -> [UInt8] {
        let bytes = root.bytes
        return bytes.last == UInt8(ascii: "/") ? bytes : bytes + [UInt8(ascii: "/")]
    }
}
