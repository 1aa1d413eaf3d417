#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlIndex
import TrawlMatch

/// What the indexes at the searched roots say about a query: for each root holding one, the files
/// that can match. A file is ruled out only when it is indexed, cannot match, and is unchanged
/// since (size, modification time, inode); everything else is searched, so results are exactly
/// those without the index.
struct IndexNarrowing: Sendable {
    private struct Root: Sendable {
        var path: FilePath
        var index: StoredTreeIndex
        var candidates: Set<UInt32>
    }

    private var indexed: [Root] = []
    /// Indexes found but unusable (reported; the search goes on without them).
    private(set) var problems: [String] = []

    init(roots: [FilePath], query: LiteralQuery) {
        for root in roots {
            guard case .success(let status) = root.status(), status.st_mode & S_IFMT == S_IFDIR else { continue }
            let opened = TreeIndexStore.withStoredIndex(root: root) { stored throws(TreeIndexFormat.Error) in
                try stored.candidates(for: query).map { (stored, $0) }
            }
            switch opened {
            case .success(let found??):
                indexed.append(Root(path: root, index: found.0, candidates: found.1))
            case .success:
                // No index here, or a query it cannot narrow (no lookups needed then).
                continue
            case .failure(let error):
                problems.append("\(TreeIndexStore.path(root)): \(error); searching without it (run trawl index to rebuild)")
            }
        }
    }

    /// The file's size when the index rules it out, else `nil` (search it).
    func sizeIfRuledOut(_ file: WalkedFile) -> Int? {
        guard !indexed.isEmpty else { return nil }
        for root in indexed {
            let relative = TreeIndexStore.relative(file.path, to: root.path)
            guard let (number, entry) = root.index.entry(at: relative) else { continue }
            guard !root.candidates.contains(number),
                  let current = TreeIndexStore.currentFile(file.path, relative: relative), current == entry else { return nil }
            return entry.size
        }
        return nil
    }
}
