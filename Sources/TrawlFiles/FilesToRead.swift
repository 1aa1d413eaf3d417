#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file a tree search has at hand: one to read, unless an index shows that it holds no match.
public protocol FileToRead: Sendable {
    /// The file (made on the worker that reads it).
    var file: WalkedFile { get }
    /// The file's size when an index shows that this unchanged file holds no match (it is then
    /// not read, and counts as searched without a match), else nil.
    func sizeIfRuledOut() -> Int?
    /// Why a search skips this unchanged file, as an index recorded it (it is then not read).
    var recordedSkip: FileSkip? { get }
}

extension WalkedFile: FileToRead {
    /// The walked file itself.
    public var file: WalkedFile { self }
    /// Nil: without an index nothing rules a walked file out.
    public func sizeIfRuledOut() -> Int? { nil }
    /// Nil: without an index no skip is recorded.
    public var recordedSkip: FileSkip? { nil }
}

/// Where a ``TreeSearch`` gets its files: a walk (``WalkedFiles``), or a tree's index and its
/// watcher (`IndexedFiles`, in TrawlIndex).
public protocol FilesToRead: Sendable {
    associatedtype File: FileToRead
    /// Hands each file to read to `visit`, in walk order.
    func forEachFile(_ visit: (File) -> Void) -> FilesToReadSummary
    /// Whether the files are so few and small that reading them on the calling thread is faster
    /// than starting workers.
    var areFewAndSmall: Bool { get }
}

/// What handing a tree's files over found.
public struct FilesToReadSummary: Sendable {
    /// The walk's problems (none when the files come from an index's listing).
    public var walk = Walker.Result()
    /// Files an index rules out and that are unchanged: not read; they count as searched
    /// without a match.
    public var filesRuledOut = 0
    /// Their bytes.
    public var bytesRuledOut = 0

    /// A summary of a walk's problems and of the files an index ruled out.
    public init(walk: Walker.Result = Walker.Result(), filesRuledOut: Int = 0, bytesRuledOut: Int = 0) {
        self.walk = walk
        self.filesRuledOut = filesRuledOut
        self.bytesRuledOut = bytesRuledOut
    }
}

/// The files under some roots, as a ``Walker`` finds them.
public struct WalkedFiles: FilesToRead {
    /// The roots walked: folders or files.
    public let roots: [FilePath]
    /// The walker, with the walk's options.
    public let walker: Walker

    /// The files `options` select under `roots`.
    public init(_ roots: [FilePath], options: WalkOptions = WalkOptions()) {
        self.roots = roots
        walker = Walker(options: options)
    }

    /// Walks the roots, handing each file to `visit` in walk order.
    public func forEachFile(_ visit: (WalkedFile) -> Void) -> FilesToReadSummary {
        FilesToReadSummary(walk: walker.walk(roots, visit: visit))
    }

    /// One path that is not a folder (one file is read on one thread either way), or a few small
    /// regular files. Named devices and FIFOs among several are read in parallel: one may wait for
    /// another to be read.
    public var areFewAndSmall: Bool { WalkedFiles.areFewAndSmall(roots: roots) }

    /// Whether reading `roots` on the calling thread is faster than starting workers: one path
    /// that is not a folder, or a few small regular files (``areFewAndSmall(_:)``).
    public static func areFewAndSmall(roots: [FilePath]) -> Bool {
        if roots.count == 1, case .success(let status) = roots[0].status() { return status.st_mode & S_IFMT != S_IFDIR }
        return areFewAndSmall(roots)
    }

    /// A few small files are read on the calling thread: starting the worker threads took longer
    /// than reading them. At most this many files...
    public static let fewFiles = 8
    /// ... holding at most this many bytes together.
    public static let fewBytes = 4 << 20

    /// Whether `paths` are at most ``fewFiles`` regular files of at most ``fewBytes`` together.
    public static func areFewAndSmall(_ paths: [FilePath]) -> Bool {
        guard paths.count <= fewFiles else { return false }
        var bytes = 0
        for path in paths {
            guard case .success(let status) = path.status(), status.st_mode & S_IFMT == S_IFREG else { return false }
            bytes += Int(status.st_size)
        }
        return bytes <= fewBytes
    }
}
