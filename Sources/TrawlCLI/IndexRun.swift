#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlIndex

/// `trawl index [PATH]`: builds the tree's index, or refreshes it — only files whose size,
/// modification time or inode changed are read again; added and deleted files are noticed.
public struct IndexRun: Sendable {
    public var root: FilePath = "."
    public var stats = false

    /// Ignore any index there: read every file.
    var fresh = false

    public init() {}

    init(root: FilePath, stats: Bool, fresh: Bool) {
        self.root = root
        self.stats = stats
        self.fresh = fresh
    }

    private enum Outcome: Sendable {
        case unchanged(String)
        case indexed(TreeIndex.File, [UInt32])
        case skipped
    }

    /// Runs it; returns the exit code (0 done, 2 error).
    public func run() -> Int32 {
        let start = monotonicNanoseconds()
        // The file table first: a refresh that finds nothing changed reads no posting list.
        var recorded: [String: TreeIndex.File]?
        switch fresh ? .success(nil) : TreeIndexStore.withStoredIndex(root: root, { stored throws(TreeIndexFormat.Error) in stored.files }) {
        case .success(let files?):
            recorded = Dictionary(files.compactMap { $0 }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        case .success(nil): break
        case .failure(let error): Console.error("\(TreeIndexStore.path(root)): \(error); building it again")
        }
        // A file changed within the last two seconds may change again within its timestamp's
        // granularity unseen ("racily clean" in git): it is recorded as changed, read next time.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let racy = Int(now.tv_sec - 2) * 1_000_000_000 + Int(now.tv_nsec)
        let root = self.root, previous = recorded
        var kept: Set<String> = []
        var indexed: [(file: TreeIndex.File, keys: [UInt32])] = []
        var bytesRead = 0
        let walked = processInWalkOrder(Walker(options: WalkOptions()), roots: [root], work: { file -> Outcome in
            let relative = TreeIndexStore.relative(file.path, to: root)
            guard var current = TreeIndexStore.currentFile(file.path, relative: relative) else { return .skipped }
            if let previous, previous[relative] == current { return .unchanged(relative) }
            // Only text files are indexed (as find searches them); the rest is always scanned.
            guard case .success(let content) = FileContent.read(path: file.path, for: .search(allowsMapping: true, allowsStreams: false)),
                  !content.changedWhileMapped else { return .skipped }
            let keys = content.text.withBytes { TreeIndex.trigramKeys(in: $0) }
            if current.modified >= racy { current.modified = -1 }
            return .indexed(current, keys)
        }, consume: { outcome in
            switch outcome {
            case .unchanged(let path): kept.insert(path)
            case .indexed(let file, let keys):
                indexed.append((file, keys))
                bytesRead += file.size
            case .skipped: break
            }
        })
        walked.errors.forEach(Console.error)
        var index: TreeIndex
        var old: TreeIndex?
        if let recorded {
            let gone = recorded.keys.filter { !kept.contains($0) }
            if gone.isEmpty && indexed.isEmpty {
                if stats { printStatistics(read: 0, bytes: 0, start: start) }
                return walked.errors.isEmpty ? 0 : 2
            }
            switch TreeIndexStore.withStoredIndex(root: root, { stored throws(TreeIndexFormat.Error) in try stored.loadAll() }) {
            case .success(let loaded): old = loaded
            case .failure(let error): Console.error("\(TreeIndexStore.path(root)): \(error); building it again")
            }
        }
        if var refreshed = old {
            // Files changed, deleted or no longer walked: out (the changed come back in below).
            refreshed.remove(paths: refreshed.files.compactMap { $0?.path }.filter { !kept.contains($0) })
            for (file, keys) in indexed { refreshed.add(file, keys: keys) }
            index = refreshed
        } else {
            // Nothing to start from: every file is read (again, if it was thought unchanged).
            if recorded != nil && !kept.isEmpty { return IndexRun(root: root, stats: stats, fresh: true).run() }
            index = TreeIndex(indexed)
        }
        do {
            try TreeIndexStore.save(index, root: root)
        } catch {
            Console.error("\(TreeIndexStore.path(root)): cannot write the index: \(error)")
            return 2
        }
        if stats { printStatistics(read: indexed.count, bytes: bytesRead, start: start) }
        return walked.errors.isEmpty ? 0 : 2
    }

    private func printStatistics(read: Int, bytes: Int, start: UInt64) {
        _ = TreeIndexStore.withStoredIndex(root: root) { stored throws(TreeIndexFormat.Error) in
            let size = (try? FileDescriptor.open(TreeIndexStore.path(root), .readOnly)).map { descriptor in
                defer { try? descriptor.close() }
                return Int((try? descriptor.seek(offset: 0, from: .end)) ?? 0)
            } ?? 0
            let elapsed = monotonicNanoseconds() - start
            Console.write("\(stored.fileCount) files (\(read) read, \(bytes) bytes), \(stored.trigramCount) trigrams, index \(size) bytes, \(formatSeconds(elapsed))\n")
        }
    }
}
