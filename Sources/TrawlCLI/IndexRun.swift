import Dispatch
import SystemPackage
import TrawlFiles
import TrawlIndex
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlConcurrency

/// `trawl index [PATH]`: builds the tree's index, or refreshes it — only files whose size,
/// modification time or inode changed are read again; added and deleted files are noticed.
package struct IndexRun: Sendable {
    package var root: FilePath = "."
    package var stats = false
    /// Every file read into a new index, whatever index is there.
    package var rebuild = false
    /// Stay, keeping the index fresh and telling searches what changed (until SIGINT or SIGTERM).
    package var watch = false

    package init() {}

    /// Runs it; returns the exit code (0 done, 2 error).
    package func run() -> Int32 {
        if watch { return runWatching() }
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
        if stats { printStats(report, nanoseconds: elapsed) }
        return report.errors.isEmpty ? 0 : 2
    }

    private func printStats(_ report: TreeIndexer.Report, nanoseconds elapsed: UInt64) {
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

    /// `--watch`: a ``TreeWatcher`` in the foreground. Says on stderr when searches can rely on it
    /// ("watching"), and prints each refresh's figures with `--stats`.
    private func runWatching() -> Int32 {
        let watcher: TreeWatcher
        // TRAWL_WATCH_EVENT_DELAY_MS: for tests (events read late, to show the cookie at work).
        let delay = getenv("TRAWL_WATCH_EVENT_DELAY_MS").flatMap { Int(String(cString: $0)) } ?? 0
        do { watcher = try TreeWatcher(root: root, eventDelayMilliseconds: delay) } catch {
            Console.error("\(error)")
            return 2
        }
        var handlers: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { watcher.stop() }
            source.resume()
            handlers.append(source)
        }
        defer { handlers.forEach { $0.cancel() } }
        var ready = false
        do {
            try watcher.run { event in
                switch event {
                case .refreshed(let report, let nanoseconds, let trusted):
                    report.notes.forEach(Console.error)
                    report.errors.forEach(Console.error)
                    if stats { printStats(report, nanoseconds: nanoseconds) }
                    if trusted && !ready {
                        ready = true
                        Console.error("watching \(root.string): searches ask this watcher what changed (stop with Ctrl-C)")
                    }
                case .refreshFailed(let message):
                    Console.error(message)
                case .overflowed:
                    Console.error("\(root.string): too many changes at once; searches check every file until the next refresh")
                }
            }
        } catch {
            Console.error("\(error)")
            return 2
        }
        return 0
    }
}
