#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlMatch
import TrawlNGram

/// A file to search, and what a tree's index says of it.
public struct NarrowedFile: Sendable {
    private enum Source: Sendable {
        case walked(WalkedFile)
        /// From a listing: the root's path with a trailing `/`, and the path below it, opened from
        /// the root (`anchor`) without following links.
        case listed(anchor: FolderAnchor?, prefix: [UInt8], relative: [UInt8])
    }

    private let source: Source
    /// Set when the index rules the file out, as long as it is unchanged since.
    private let ruledOutUnless: FileSignature?
    /// Why a search skips this file (not valid UTF-8, UTF-16), as the index's listing records
    /// it and the file is unchanged since: a search reports the skip without reading the file.
    public let recordedSkip: FileSkip?

    /// A walked file the index says nothing of.
    public init(_ file: WalkedFile) {
        source = .walked(file)
        ruledOutUnless = nil
        recordedSkip = nil
    }

    init(_ file: WalkedFile, ruledOutUnless signature: FileSignature?) {
        source = .walked(file)
        ruledOutUnless = signature
        recordedSkip = nil
    }

    /// A listed file to hand over (those the index rules out and are unchanged are not).
    init(anchor: FolderAnchor?, prefix: [UInt8], relative: [UInt8], recordedSkip: FileSkip?) {
        source = .listed(anchor: anchor, prefix: prefix, relative: relative)
        ruledOutUnless = nil
        self.recordedSkip = recordedSkip
    }

    /// The file (its path is made here, on the worker, not while listing).
    public var file: WalkedFile {
        switch source {
        case .walked(let file): file
        case .listed(let anchor, let prefix, let relative): WalkedFile(path: FilePath(bytes: prefix + relative), isExplicit: false, anchor: anchor)
        }
    }

    /// The file's size when the index rules it out and it is unchanged (one `stat`), else `nil`:
    /// search it.
    public func sizeIfRuledOut() -> Int? {
        // Only walked files are ruled out here: a listing's were checked in one sweep.
        guard let signature = ruledOutUnless, case .walked(let file) = source else { return nil }
        return signature.matches(FileSignature.of(file.path)) ? signature.size : nil
    }
}

/// What the indexes at the searched roots say about a query. When one root is searched with the
/// default walk and its index's listing is current, the files come from the listing (no walk);
/// otherwise the tree is walked and each file the index knows is looked up. Either way what the
/// index says of a file (it cannot match; it is binary; it is not UTF-8) counts only while the
/// file is unchanged since, so results, notes included, are exactly those without the index.
public struct TreeIndexNarrowing: Sendable {
    private struct Root: Sendable {
        var path: FilePath
        var files: [[UInt8]: TreeListing.File]
        var candidates: PostingList?
    }

    private var indexed: [Root] = []
    private var listing: (root: FilePath, files: [TreeListing.File], candidates: PostingList?, watched: (changed: Set<Int>, gone: Set<Int>)?)?
    /// The files a watcher selected for the query, from the index it holds open.
    private var served: (root: FilePath, selection: TreeWatchChannel.Selection)?
    /// Indexes found but unusable (the search goes on without them).
    public private(set) var problems: [String] = []

    /// Whether a binary file the index lists as such is skipped unread while unchanged (as a
    /// search skips it; not when the caller reports each binary file).
    private let skipsBinaryFiles: Bool

    /// Opens the indexes at `roots` for `query` with the walk `options` (a listing needs options
    /// that select what the default walk selects). With `skipsBinaryFiles`, listed binary files
    /// that are unchanged are skipped unread, as a search of a tree skips binary files.
    public init(roots: [FilePath], query: LiteralQuery, options: WalkOptions, skipsBinaryFiles: Bool = true) {
        self.skipsBinaryFiles = skipsBinaryFiles
        for root in roots {
            guard case .success(let status) = root.status(), status.st_mode & S_IFMT == S_IFDIR else { continue }
            // A watcher of the tree, when one runs, answers from the index it holds open: this
            // search opens none.
            let listable = roots.count == 1 && options.selectsDefaultFiles
            // Whether to ask a watcher what changed, below: not when one was asked already.
            var asksChanges = listable
            if listable && options.excludes == nil {
                switch TreeWatchChannel.selection(at: status, for: query, skipsBinaryFiles: skipsBinaryFiles) {
                case .answered(let selection):
                    served = (root, selection)
                    return
                case .cannotSay, .noWatcher: asksChanges = false
                }
            }
            let stored: StoredTreeIndex
            let candidates: PostingList?
            do {
                guard let opened = try TreeIndexStore.open(root: root).get() else { continue }
                stored = opened
                candidates = try stored.candidates(for: query)
            } catch {
                problems.append("\(TreeIndexStore.manifestPath(root)): \(error); searching without it (trawl index --rebuild builds it again)")
                continue
            }
            if listable {
                // A watcher of the tree, when one runs, says which files changed: no `stat`s.
                if asksChanges, let changes = TreeWatchChannel.changes(at: status, since: stored.identity),
                   let watched = stored.listing.filesChanged(by: changes, root: root) {
                    listing = (root, stored.listing.files, candidates, watched)
                    return
                }
                if stored.listing.currentDirectories(root: root, racyAfter: FileSignature.racyInstant()) != nil {
                    listing = (root, stored.listing.files, candidates, nil)
                    return
                }
            }
            // Without candidates the index rules nothing out: no lookups needed.
            guard candidates != nil else { continue }
            let files = Dictionary(stored.listing.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            indexed.append(Root(path: root, files: files, candidates: candidates))
        }
    }

    /// Whether the files come from an index's listing, without a walk.
    public var listsFiles: Bool { listing != nil || served != nil }

    /// Whether a watcher of the tree said which listed files changed (none is `stat`ed).
    public var usesWatcher: Bool { listing?.watched != nil || served != nil }

    /// The files to read when a watcher chose them and they are at most `limit` (not those with
    /// a recorded skip, which are not read), else `nil`: the files are known before they are
    /// handed over.
    public func filesChosenByWatcher(atMost limit: Int) -> [FilePath]? {
        guard let served, served.selection.recordedSkips.lazy.filter({ $0 == nil }).count <= limit else { return nil }
        let prefix = TreeIndexer.prefix(of: served.root)
        return zip(served.selection.paths, served.selection.recordedSkips).compactMap { path, skip in
            skip == nil ? FilePath(bytes: prefix + path) : nil
        }
    }

    /// Hands the files to search under `roots` to `visit` in walk order, from the listing or from
    /// `walker`.
    public func files(_ roots: [FilePath], walker: Walker, visit: (NarrowedFile) -> Void) -> FilesToReadSummary {
        if let served {
            let prefix = TreeIndexer.prefix(of: served.root), anchor = FolderAnchor(served.root)
            for (path, skip) in zip(served.selection.paths, served.selection.recordedSkips) {
                visit(NarrowedFile(anchor: anchor, prefix: prefix, relative: path, recordedSkip: skip))
            }
            return FilesToReadSummary(filesRuledOut: served.selection.filesRuledOut, bytesRuledOut: served.selection.bytesRuledOut)
        }
        if let listing {
            return list(listing.root, listing.files, listing.candidates, watched: listing.watched, excludes: walker.options.excludes, visit: visit)
        }
        return FilesToReadSummary(walk: walker.walk(roots) { file in
            visit(NarrowedFile(file, ruledOutUnless: ruledOut(file)))
        })
    }

    private func ruledOut(_ file: WalkedFile) -> FileSignature? {
        for root in indexed {
            let relative = TreeIndexer.relative(file.path, to: root.path)
            guard let entry = root.files[relative] else { continue }
            guard let number = entry.number, let candidates = root.candidates, !candidates.contains(number) else { return nil }
            return entry.signature
        }
        return nil
    }

    private func list(_ root: FilePath, _ files: [TreeListing.File], _ candidates: PostingList?, watched: (changed: Set<Int>, gone: Set<Int>)?,
                      excludes: (@Sendable (FilePath, [UInt8]) -> Bool)?, visit: (NarrowedFile) -> Void) -> FilesToReadSummary {
        let selection = TreeIndexNarrowing.select(files, root: root, candidates: candidates, watched: watched, skipsBinaryFiles: skipsBinaryFiles,
                                                  excludes: excludes)
        let prefix = TreeIndexer.prefix(of: root), anchor = FolderAnchor(root)
        for (position, skip) in selection.files {
            visit(NarrowedFile(anchor: anchor, prefix: prefix, relative: files[position].path, recordedSkip: skip))
        }
        return FilesToReadSummary(filesRuledOut: selection.filesRuledOut, bytesRuledOut: selection.bytesRuledOut)
    }

    /// The listed files to hand over (their positions, in walk order, each with the skip the
    /// listing records for it while it is unchanged: not valid UTF-8, UTF-16) and those skipped
    /// (count and bytes). What the listing says of a file counts only while it is unchanged —
    /// the watcher did not name it (`watched`), or else a sweep of `stat`s finds it as listed: a
    /// file is then skipped when the index rules it out (`candidates`, or a binary file with
    /// `skipsBinaryFiles`), and reported as skipped, unread, when the listing says why a search
    /// would skip it. The watcher answers a search with the same.
    static func select(_ files: [TreeListing.File], root: FilePath, candidates: PostingList?, watched: (changed: Set<Int>, gone: Set<Int>)?,
                       skipsBinaryFiles: Bool, excludes: (@Sendable (FilePath, [UInt8]) -> Bool)?)
        -> (files: [(position: Int, recordedSkip: FileSkip?)], filesRuledOut: Int, bytesRuledOut: Int) {
        // The walk asks `excludes` of every folder on the way and of the file: so does the listing
        // (once per folder).
        var excludedFolders: [[UInt8]: Bool] = [:]
        func isExcluded(_ relative: ArraySlice<UInt8>) -> Bool {
            guard let excludes else { return false }
            let name = relative.lastIndex(of: UInt8(ascii: "/")).map { relative[($0 + 1)...] } ?? relative
            return excludes(root.appending(relative: Array(relative)), Array(name))
        }
        func isFolderExcluded(_ folder: ArraySlice<UInt8>) -> Bool {
            guard excludes != nil, !folder.isEmpty else { return false }
            if let known = excludedFolders[Array(folder)] { return known }
            let parent = folder.lastIndex(of: UInt8(ascii: "/")).map { folder[..<$0] } ?? []
            let excluded = isFolderExcluded(parent) || isExcluded(folder)
            excludedFolders[Array(folder)] = excluded
            return excluded
        }
        // Read in place (a copy of each entry retains its path): this loop runs over every
        // listed file (a watcher's question takes it only for a query without candidates;
        // ``ListingPositions`` answers the others).
        var selected: [Int] = []
        // The files whose outcome the listing decides, as long as they are unchanged.
        var decided: [Int] = []
        selected.reserveCapacity(files.count)
        let gone = watched?.gone ?? []
        // One flag per file number: a lookup per listed file, without a search or a hash.
        var isCandidate: [Bool] = []
        if let units = candidates?.units, let last = units.last {
            isCandidate = [Bool](repeating: false, count: Int(last) + 1)
            for unit in units { isCandidate[Int(unit)] = true }
        }
        files.withUnsafeBufferPointer { files in
            for position in files.indices {
                if !gone.isEmpty && gone.contains(position) { continue }
                if excludes != nil {
                    let path = files[position].path
                    let folder = path.lastIndex(of: UInt8(ascii: "/")).map { path[..<$0] } ?? []
                    if isFolderExcluded(folder) || isExcluded(path[...]) { continue }
                }
                selected.append(position)
                if let number = files[position].number {
                    if candidates != nil && !(Int(number) < isCandidate.count && isCandidate[Int(number)]) { decided.append(position) }
                } else if files[position].recordDecides(skipsBinaryFiles: skipsBinaryFiles) {
                    decided.append(position)
                }
            }
        }
        // Whether each is unchanged: the watcher did not name it, or else all are stat'ed first,
        // together.
        var unchanged = [Bool](repeating: false, count: files.count)
        if let watched {
            for position in decided where watched.changed.isEmpty || !watched.changed.contains(position) { unchanged[position] = true }
        } else {
            let decided = decided
            let now = SignatureSweep.current(prefix: TreeIndexer.prefix(of: root), count: decided.count) { files[decided[$0]].path }
            for (position, signature) in zip(decided, now) where files[position].signature.matches(signature) { unchanged[position] = true }
        }
        var handed: [(position: Int, recordedSkip: FileSkip?)] = []
        handed.reserveCapacity(selected.count)
        var filesRuledOut = 0, bytesRuledOut = 0
        for position in selected {
            guard unchanged[position] else {
                handed.append((position, nil))
                continue
            }
            if files[position].isSkippedWhenDecided {
                filesRuledOut += 1
                // A binary file skipped counts no bytes, as when a search skips it.
                bytesRuledOut += files[position].isBinary ? 0 : files[position].signature.size
            } else {
                handed.append((position, files[position].skip))
            }
        }
        return (handed, filesRuledOut, bytesRuledOut)
    }
}
