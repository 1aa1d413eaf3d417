#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlMatch
import TrawlNGram

/// The files to read for a query under some roots, narrowed by the trees' indexes when they have
/// them (`ROOT/.trawl/`): from an index's listing or its watcher's changes when one root is
/// searched with the default walk, else from a walk in which each file an index rules out is not
/// read. Without an index, a plain walk.
public struct IndexedFiles: FilesToRead {
    /// The roots searched.
    public let roots: [FilePath]
    private let walker: Walker
    private let narrowing: TreeIndexNarrowing?

    /// The files `options` select under `roots` that may hold a match of `query`
    /// (`matcher.literalQuery`). With `usesIndex` false, every file the walk finds.
    /// `skipsBinaryFiles`: binary files an index recorded are not handed over (false when each
    /// must be reported).
    public init(_ roots: [FilePath], query: LiteralQuery, options: WalkOptions = WalkOptions(), usesIndex: Bool = true,
                skipsBinaryFiles: Bool = true) {
        self.roots = roots
        walker = Walker(options: options)
        narrowing = usesIndex ? TreeIndexNarrowing(roots: roots, query: query, options: options, skipsBinaryFiles: skipsBinaryFiles) : nil
    }

    /// What is wrong with an index met (damaged, foreign, not readable): searched around.
    public var problems: [String] { narrowing?.problems ?? [] }
    /// Whether the files come from an index's listing (the tree is not walked).
    public var listsFiles: Bool { narrowing?.listsFiles == true }
    /// Whether a watcher of the tree said which files changed.
    public var usesWatcher: Bool { narrowing?.usesWatcher == true }

    /// Hands each file to read to `visit`, in walk order: from a listing, a watcher's answer or a narrowed walk.
    public func forEachFile(_ visit: (NarrowedFile) -> Void) -> FilesToReadSummary {
        narrowing?.files(roots, walker: walker, visit: visit)
            ?? FilesToReadSummary(walk: walker.walk(roots) { visit(NarrowedFile($0)) })
    }

    /// A watcher chose a few small files, or `WalkedFiles.areFewAndSmall(roots:)` holds of the roots.
    /// (A watcher that chose more answers a search of one folder: not read inline.)
    public var areFewAndSmall: Bool {
        if let served = narrowing?.filesChosenByWatcher(atMost: WalkedFiles.fewFiles) { return WalkedFiles.areFewAndSmall(served) }
        return WalkedFiles.areFewAndSmall(roots: roots)
    }
}

extension NarrowedFile: FileToRead {}
