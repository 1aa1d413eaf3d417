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

    public init() {}

    private enum Outcome: Sendable {
        case unchanged(String)
        case indexed(TreeIndex.File, [UInt32])
        case skipped
    }

    /// Runs it; returns the exit code (0 done, 2 error).
    public func run() -> Int32 {
        let start = monotonicNanoseconds()
        var old: TreeIndex?
        switch TreeIndexStore.withStoredIndex(root: root, { stored throws(TreeIndexFormat.Error) in try stored.loadAll() }) {
        case .success(let index): old = index
        case .failure(let error): Console.error("\(TreeIndexStore.path(root)): \(error); building it again")
        }
        // A file changed within the last two seconds may change again within its timestamp's
        // granularity unseen ("racily clean" in git): it is recorded as changed, read next time.
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let racy = Int(now.tv_sec - 2) * 1_000_000_000 + Int(now.tv_nsec)
        let root = self.root, previous = old
        var kept: Set<String> = []
        var indexed: [(file: TreeIndex.File, keys: [UInt32])] = []
        var bytesRead = 0
        let walked = processInWalkOrder(Walker(options: WalkOptions()), roots: [root], work: { file -> Outcome in
            let relative = TreeIndexStore.relative(file.path, to: root)
            guard var current = TreeIndexStore.currentFile(file.path, relative: relative) else { return .skipped }
            if let previous, previous.isFresh(current) { return .unchanged(relative) }
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
        if var refreshed = old {
            // Files changed, deleted or no longer walked: out (the changed come back in below).
            let gone = refreshed.files.compactMap { $0?.path }.filter { !kept.contains($0) }
            refreshed.remove(paths: gone)
            for (file, keys) in indexed { refreshed.add(file, keys: keys) }
            index = refreshed
        } else {
            index = TreeIndex(indexed)
        }
        do {
            try TreeIndexStore.save(index, root: root)
        } catch {
            Console.error("\(TreeIndexStore.path(root)): cannot write the index: \(error)")
            return 2
        }
        if stats {
            let size = (try? FileDescriptor.open(TreeIndexStore.path(root), .readOnly)).map { descriptor in
                defer { try? descriptor.close() }
                return Int((try? descriptor.seek(offset: 0, from: .end)) ?? 0)
            } ?? 0
            let elapsed = monotonicNanoseconds() - start
            Console.write("\(index.fileCount) files (\(indexed.count) read, \(bytesRead) bytes), \(index.postingCount) postings, \(index.trigrams.postings.count) trigrams, index \(size) bytes, \(formatSeconds(elapsed))\n")
        }
        return walked.errors.isEmpty ? 0 : 2
    }
}
