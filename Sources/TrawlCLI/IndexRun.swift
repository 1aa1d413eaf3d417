import SystemPackage
import TrawlFiles
import TrawlIndex

/// `trawl index [PATH]`: builds the tree's index, or refreshes it — only files whose size,
/// modification time or inode changed are read again; added and deleted files are noticed.
public struct IndexRun: Sendable {
    public var root: FilePath = "."
    public var stats = false
    /// Every file read into a new index, whatever index is there.
    public var rebuild = false

    public init() {}

    /// Runs it; returns the exit code (0 done, 2 error).
    public func run() -> Int32 {
        let start = monotonicNanoseconds()
        let report: TreeIndexer.Report
        do {
            report = try TreeIndexer(root: root).update(rebuild: rebuild)
        } catch {
            Console.error("\(TreeIndexStore.manifestPath(root)): cannot write the index: \(error)")
            return 2
        }
        // The listing's tens of thousands of paths are freed by the system at exit, at once.
        keepUntilExit(report)
        report.notes.forEach(Console.error)
        report.errors.forEach(Console.error)
        let elapsed = monotonicNanoseconds() - start
        if stats {
            var lists = 0, segments = 0
            if case .success(let stored?) = TreeIndexStore.open(root: root, readingTables: false) {
                lists = stored.trigramListCount
                segments = stored.manifest.segments.count
            }
            let what = report.rebuilt ? "built" : report.written ? "refreshed" : "unchanged"
            Console.write("\(report.files) files, \(report.indexed) indexed holding \(report.indexedBytes) bytes (\(report.read) read, \(report.bytesRead) bytes); "
                + "\(what)\(report.walked ? " after a walk" : " without a walk"); \(lists) trigram lists in \(segments) segment\(segments == 1 ? "" : "s"), "
                + "index \(TreeIndexStore.byteCount(root: root)) bytes, \(formatSeconds(elapsed))\n")
        }
        return report.errors.isEmpty ? 0 : 2
    }
}
