#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles

extension TreeListing {
    /// What a watcher's `changes` (paths changed since this listing was made) mean for a search:
    /// the positions of listed files to search whatever the index says (`changed`) and of those
    /// gone since (`gone`: a walk would not find them), or `nil` when the listing no longer says
    /// what a walk would find — an entry added, a listed folder changed, an ignore file or
    /// `.git` marker touched, or one of the watched paths at `unseen` (positions in `watched`;
    /// all when `nil`: those the watcher cannot see are its caller's to check) changed. Costs a
    /// `stat` per changed path and per path in `unseen`, and no more.
    package func filesChanged(by changes: Set<[UInt8]>, root: FilePath, unseen: [Int]? = nil) -> (changed: Set<Int>, gone: Set<Int>)? {
        guard isComplete, root.resolved()?.bytes == self.root, watchedAreCurrent(unseen ?? Array(watched.indices), root: root) else { return nil }
        var changed = Set<Int>(), gone = Set<Int>()
        for path in changes {
            let name = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[($0 + 1)...]) } ?? path
            if TreeListing.ignoreFileNames.contains(name) || name == TreeListing.repositoryMarker { return nil }
            if let position = TreeListing.position(of: path, in: files, \.path) {
                // Not followed: a file replaced by a link is not what the walk would select.
                switch root.appending(relative: path).linkStatus() {
                case .failure(let error) where error == .noSuchFileOrDirectory:
                    gone.insert(position)
                case .success(let status) where status.st_mode & S_IFMT == S_IFREG:
                    changed.insert(position)
                default:
                    return nil
                }
            } else if path.isEmpty || TreeListing.position(of: path, in: directories, \.path) != nil {
                return nil
            } else if case .success = root.appending(relative: path).linkStatus() {
                // A new entry, which the walk may select.
                return nil
            }
            // Else a path come and gone (a temporary file of a save, say): a walk would not see it.
        }
        return (changed, gone)
    }

    /// Whether the watched paths at `positions` are as listed.
    func watchedAreCurrent(_ positions: [Int], root: FilePath) -> Bool {
        positions.allSatisfy { watched[$0].isCurrent(FileSignature.of(root.appending(relative: watched[$0].path))) }
    }

    /// The watched paths (positions in `watched`) whose changes the events of the listed folders
    /// may not name: those above the root or inside `.git` (folders no watcher of the tree
    /// watches) and links (a link changes with its target). A watcher `stat`s these at each
    /// question; a change to any other (edited, deleted, replaced by a link) is an event in a
    /// listed folder. Found once per index a watcher opens (an `lstat` each). A file with other
    /// hard links can change through a name outside the tree: it counts as unseen too.
    package func watchedUnseen(root: FilePath) -> [Int] {
        let up = Array("../".utf8)
        return watched.indices.filter { position in
            let path = watched[position].path
            if path.starts(with: up) { return true }
            if path.split(separator: UInt8(ascii: "/")).dropLast().contains(where: { $0.elementsEqual(TreeListing.repositoryMarker) }) { return true }
            guard case .success(let status) = root.appending(relative: path).linkStatus() else { return false }
            return status.st_mode & S_IFMT == S_IFLNK || status.st_nlink > 1
        }
    }

    /// Where `path` is among `entries` (in walk order: names sorted bytewise within a folder,
    /// folders depth first), by bisection.
    static func position<Entry>(of path: [UInt8], in entries: [Entry], _ entryPath: KeyPath<Entry, [UInt8]>) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if walkOrderPrecedes(entries[middle][keyPath: entryPath], path) { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low][keyPath: entryPath] == path ? low : nil
    }

    /// Whether `first` comes before `second` in walk order: component by component, each compared
    /// bytewise — bytewise with `/` below every other byte (names hold neither `/` nor NUL).
    static func walkOrderPrecedes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { walkOrderPrecedes(first, $0) } }
    }

    /// ``walkOrderPrecedes(_:_:)-([UInt8],[UInt8])`` of a path and a part of another.
    static func walkOrderPrecedes(_ first: [UInt8], _ second: ArraySlice<UInt8>) -> Bool {
        first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { walkOrderPrecedes(first, $0) } }
    }

    private static func walkOrderPrecedes(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        for index in 0..<min(first.count, second.count) where first[index] != second[index] {
            let a = first[index], b = second[index]
            return (a == slash ? 0 : a) < (b == slash ? 0 : b)
        }
        return first.count < second.count
    }
}
