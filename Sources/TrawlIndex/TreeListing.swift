#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles

/// What the default walk of a tree found, recorded so that a later search can list the same files
/// without walking: the files in walk order, and what would make a walk find others — every
/// folder walked (an entry added, removed or renamed changes it) and the ignore files and `.git`
/// markers that decide what is walked, inside the tree and above it.
///
/// Checking costs a `stat` per folder and per ignore file, and a `readdir` only for a folder
/// whose status changed (a rename over a file keeps its names: still current).
package struct TreeListing: Sendable, Equatable {
    /// A file the walk selected.
    package struct File: Sendable, Hashable {
        /// The path relative to the root, `/`-separated (bytes: not always UTF-8).
        package var path: [UInt8]
        /// Its number in the index's posting lists; `nil` when it is not indexed (not text, or
        /// unreadable when indexed): such a file is always searched.
        package var number: UInt32?
        package var signature: FileSignature
        /// Why it is not indexed, when a search would skip it too: binary (a search of a tree
        /// skips it unread while it is unchanged), not valid UTF-8 or UTF-16 (a search reports
        /// the skip, read from here while the file is unchanged).
        package var skip: FileSkip?

        package init(path: [UInt8], number: UInt32?, signature: FileSignature, skip: FileSkip? = nil) {
            self.path = path
            self.number = number
            self.signature = signature
            self.skip = number == nil ? skip : nil
        }

        /// Whether it is listed as a binary file.
        package var isBinary: Bool {
            if case .binary = skip { true } else { false }
        }

        /// Whether, while this file is not indexed and unchanged, what the listing records of it
        /// decides what a search does without reading it: a binary file is skipped (with
        /// `skipsBinaryFiles`), another skip is reported from the listing.
        func recordDecides(skipsBinaryFiles: Bool) -> Bool {
            number == nil && skip != nil && (skipsBinaryFiles || !isBinary)
        }

        /// Whether an unchanged file the listing decides is skipped (counted as searched without
        /// a match: ruled out by the index, or binary), not reported unread with its skip.
        var isSkippedWhenDecided: Bool { number != nil || isBinary }
    }

    /// A folder the walk entered.
    package struct Directory: Sendable, Hashable {
        /// Relative to the root (empty for the root).
        package var path: [UInt8]
        package var signature: FileSignature
        /// A hash of its entries' names and types.
        package var entriesHash: UInt64

        package init(path: [UInt8], signature: FileSignature, entriesHash: UInt64) {
            self.path = path
            self.signature = signature
            self.entriesHash = entriesHash
        }
    }

    /// A path whose presence, or content, decides what the walk selects.
    package struct Watched: Sendable, Hashable {
        /// Relative to the root; `../` leads to the folders above it.
        package var path: [UInt8]
        /// `nil` when absent.
        package var signature: FileSignature?
        /// Only whether it exists counts (a `.git` marker), not its status.
        package var presenceOnly: Bool

        package init(path: [UInt8], signature: FileSignature?, presenceOnly: Bool) {
            self.path = path
            self.signature = presenceOnly && signature != nil ? Watched.present : signature
            self.presenceOnly = presenceOnly
        }

        /// The signature recorded for a present path whose presence alone counts.
        static let present = FileSignature(size: 0, modified: 0, changed: 0, inode: 0, mode: 0)

        /// Whether the path is as recorded now.
        func isCurrent(_ now: FileSignature?) -> Bool {
            if presenceOnly { return (now == nil) == (signature == nil) }
            guard let signature else { return now == nil }
            return signature.matches(now)
        }
    }

    /// The root's absolute path with links resolved: ignore rules above the root match against
    /// it, so a tree that moved is walked again.
    package var root: [UInt8]
    /// Whether the walk met no problem (an unreadable folder, a file gone while it was indexed):
    /// only a complete listing stands in for a walk.
    package var isComplete: Bool
    package var files: [File]
    package var directories: [Directory]
    package var watched: [Watched]

    package init(root: [UInt8] = [], isComplete: Bool = true, files: [File] = [], directories: [Directory] = [], watched: [Watched] = []) {
        self.root = root
        self.isComplete = isComplete
        self.files = files
        self.directories = directories
        self.watched = watched
    }

    /// The names of the ignore files the walk reads in a folder, and of the marker that makes it
    /// a repository.
    static let ignoreFileNames = [".gitignore", ".ignore"].map { Array($0.utf8) }
    static let repositoryMarker = Array(".git".utf8)
    static let excludeFile = Array(".git/info/exclude".utf8)

    /// FNV-1a over the entries' names and kinds, of the folder at `path`. Where the file system
    /// does not give an entry's type, it is looked up (`lstat`), as the walk does: a file turned
    /// into a link or a folder under the same name changes the hash.
    package static func entriesHash(_ entries: [DirectoryEntry], in path: FilePath) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for entry in entries {
            for byte in entry.name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            var kind = UInt64(entry.type)
            if entry.type == UInt8(DT_UNKNOWN) {
                if case .success(let status) = path.appending(relative: entry.name).linkStatus() {
                    kind = 0x200 | UInt64(status.st_mode & S_IFMT)
                }
            }
            hash = (hash ^ 0x100 ^ kind) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// What to watch in a folder the walk entered, given its entries. The walk read the ignore
    /// files before this `stat`: one changed in between, or too recently to trust, is recorded as
    /// racy (never current), so the next search walks.
    static func watched(in relative: [UInt8], entries: [DirectoryEntry], root: FilePath, racyAfter instant: Int) -> [Watched] {
        var found: [Watched] = []
        let prefix = relative.isEmpty ? [] : relative + [UInt8(ascii: "/")]
        for entry in entries {
            if ignoreFileNames.contains(entry.name) {
                let path = prefix + entry.name
                found.append(Watched(path: path, signature: FileSignature.of(root.appending(relative: path))?.checked(racyAfter: instant), presenceOnly: false))
            } else if entry.name == repositoryMarker {
                found.append(Watched(path: prefix + entry.name, signature: FileSignature.of(root.appending(relative: prefix + entry.name)), presenceOnly: true))
                let exclude = prefix + excludeFile
                found.append(Watched(path: exclude, signature: FileSignature.of(root.appending(relative: exclude))?.checked(racyAfter: instant), presenceOnly: false))
            }
        }
        return found
    }

    /// What to watch in the folders above `root`: the walk reads their ignore files too.
    static func watchedAbove(root: FilePath, racyAfter instant: Int) -> [Watched] {
        guard let resolved = root.resolved()?.bytes else { return [] }
        let depth = resolved.split(separator: UInt8(ascii: "/")).count
        var found: [Watched] = []
        var up: [UInt8] = []
        for _ in 0..<depth {
            up += Array("../".utf8)
            for name in ignoreFileNames + [repositoryMarker, excludeFile] {
                let path = up + name
                found.append(Watched(path: path, signature: FileSignature.of(root.appending(relative: path))?.checked(racyAfter: instant),
                                     presenceOnly: name == repositoryMarker))
            }
        }
        return found
    }

    /// The folders as they are now when a walk would find what this listing records (with fresh
    /// signatures, racy ones marked), or `nil` when it would not.
    package func currentDirectories(root: FilePath, racyAfter instant: Int) -> [Directory]? {
        guard isComplete, root.resolved()?.bytes == self.root else { return nil }
        // The folders and the watched paths, in one sweep.
        let directories = self.directories, watched = self.watched
        let now = SignatureSweep.current(prefix: TreeIndexer.prefix(of: root), count: directories.count + watched.count) {
            $0 < directories.count ? directories[$0].path : watched[$0 - directories.count].path
        }
        guard watched.indices.allSatisfy({ watched[$0].isCurrent(now[directories.count + $0]) }) else { return nil }
        var current = directories
        for (position, directory) in directories.enumerated() {
            guard let signature = now[position], signature.mode & UInt32(S_IFMT) == UInt32(S_IFDIR) else { return nil }
            if directory.signature.matches(signature) { continue }
            // Changed: the same names (a file renamed over another, a temporary file come and
            // gone) walk the same.
            let path = root.appending(relative: directory.path)
            guard directory.signature.inode == signature.inode, case .success(let entries) = path.directoryEntries(),
                  TreeListing.entriesHash(entries, in: path) == directory.entriesHash else { return nil }
            current[position].signature = signature.checked(racyAfter: instant)
        }
        return current
    }
}

extension FileSkip {
    /// Whether a listing records this skip of a file: what the file's bytes decide (binary, not
    /// UTF-8, UTF-16), not what happened while it was read.
    var isRecordedInListing: Bool {
        switch self {
        case .binary, .invalidUTF8, .utf16: true
        case .unreadable, .notRegular, .changedDuringRead: false
        }
    }
}
