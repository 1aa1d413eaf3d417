import TrawlMatch

/// A trigram index of the files of a tree: which files can hold a match, and whether a file is
/// still the one indexed (its size, modification time and inode unchanged, as git decides).
///
/// Files are units of the shared ``NGramIndex``; a query is exact per file (a file holds all
/// of a match's literals). A value; ``TreeIndexFormat`` stores it.
public struct TreeIndex: Sendable {
    /// What is known of an indexed file.
    public struct File: Sendable, Hashable {
        /// The path relative to the tree's root, `/`-separated.
        public var path: String
        public var size: Int
        /// Modification time, nanoseconds since the epoch.
        public var modified: Int
        public var inode: UInt64

        public init(path: String, size: Int, modified: Int, inode: UInt64) {
            self.path = path
            self.size = size
            self.modified = modified
            self.inode = inode
        }
    }

    /// The files by number (`nil` where a file was removed and its number is free).
    public private(set) var files: [File?] = []
    public private(set) var trigrams = NGramIndex()
    private var numbers: [String: UInt32] = [:]
    private var freeNumbers: [UInt32] = []

    public init() {}

    /// An index of `files`, each with its distinct trigram keys (numbered in order).
    public init(_ indexed: [(file: File, keys: [UInt32])]) {
        files = indexed.map(\.file)
        for (number, entry) in indexed.enumerated() { numbers[entry.file.path] = UInt32(number) }
        trigrams = indexed.count >= 64
            ? NGramIndex(units: indexed.enumerated().lazy.map { (number: UInt32($0), keys: $1.keys) })
            : indexed.enumerated().reduce(into: NGramIndex()) { index, entry in
                index.add(entry.element.keys.lazy.map { Trigram(key: $0) }, to: UInt32(entry.offset))
            }
    }

    init(files: [File?], trigrams: NGramIndex) {
        self.files = files
        self.trigrams = trigrams
        for (number, file) in files.enumerated() {
            if let file { numbers[file.path] = UInt32(number) } else { freeNumbers.append(UInt32(number)) }
        }
    }

    /// The number of files indexed.
    public var fileCount: Int { numbers.count }

    /// The indexed file at `path`, with its number.
    public func entry(at path: String) -> (number: UInt32, file: File)? {
        guard let number = numbers[path], let file = files[Int(number)] else { return nil }
        return (number, file)
    }

    /// Takes the files at `paths` out (one pass over the postings for all of them).
    public mutating func remove(paths: some Sequence<String>) {
        var gone = Set<UInt32>()
        for path in paths {
            guard let number = numbers.removeValue(forKey: path) else { continue }
            files[Int(number)] = nil
            freeNumbers.append(number)
            gone.insert(number)
        }
        guard !gone.isEmpty else { return }
        trigrams.removeUnits(gone)
    }

    /// Adds a file (not indexed yet) with its distinct trigram keys.
    public mutating func add(_ file: File, keys: [UInt32]) {
        precondition(numbers[file.path] == nil, "already indexed: remove it first")
        let number: UInt32
        if let free = freeNumbers.popLast() {
            number = free
            files[Int(number)] = file
        } else {
            number = UInt32(files.count)
            files.append(file)
        }
        numbers[file.path] = number
        trigrams.add(keys.lazy.map { Trigram(key: $0) }, to: number)
    }

    /// The numbers of the files that can hold a match of `query`, or `nil` when any can.
    public func candidates(for query: LiteralQuery) -> Set<UInt32>? { trigrams.units(satisfying: query) }
}

extension TreeIndex {
    /// The distinct trigram keys of a file's bytes (what ``add(_:keys:)`` takes).
    public static func trigramKeys(in bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        TrigramCollector.withCollector { $0.distinct(in: bytes) }
    }

    /// Statistics: files, (trigram, file) postings, distinct trigrams.
    public var postingCount: Int { trigrams.postingCount }
}
