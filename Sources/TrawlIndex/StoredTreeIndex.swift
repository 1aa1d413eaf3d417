import TrawlMatch

/// A stored tree index opened for queries: the header, file table and trigram table are read and
/// checked at once; a posting list is read (and checked) only when a query needs it.
public struct StoredTreeIndex: Sendable {
    /// Reads `count` bytes at `offset` of the stored index.
    public typealias ReadBytes = @Sendable (_ offset: Int, _ count: Int) throws(TreeIndexFormat.Error) -> [UInt8]

    public let files: [TreeIndex.File?]
    private let numbers: [String: UInt32]
    private let table: [UInt8]
    /// The number of distinct trigrams.
    public let trigramCount: Int
    private let postingsOffset: Int
    private let size: Int
    private let read: ReadBytes

    /// Opens the index whose `size` bytes `read` returns.
    public init(size: Int, read: @escaping ReadBytes) throws(TreeIndexFormat.Error) {
        typealias Format = TreeIndexFormat
        guard size >= Format.headerLength else { throw .notAnIndex }
        let header = try read(0, Format.headerLength)
        guard Array(header[0..<8]) == Format.magic else { throw .notAnIndex }
        let version = UInt32(Format.readUInt(header, 8, 4))
        guard version == Format.version else { throw .unsupportedVersion(version) }
        guard Format.readUInt(header, 52, 8) == Format.checksum(header[0..<52]) else { throw .corrupt("header checksum") }
        let values = (0..<5).map { Int(clamping: Format.readUInt(header, 12 + 8 * $0, 8)) }
        let (filesOffset, filesLength, tableOffset, count, postingsOffset) = (values[0], values[1], values[2], values[3], values[4])
        guard filesLength >= 8, filesOffset == Format.headerLength, tableOffset == filesOffset + filesLength,
              count <= size / Format.tableEntryLength, postingsOffset == tableOffset + count * Format.tableEntryLength + 8,
              postingsOffset <= size else { throw .corrupt("bad layout") }
        let filesBytes = try read(filesOffset, filesLength)
        guard Format.readUInt(filesBytes, filesLength - 8, 8) == Format.checksum(filesBytes[0..<(filesLength - 8)]) else {
            throw .corrupt("file table checksum")
        }
        let table = try read(tableOffset, postingsOffset - tableOffset)
        guard Format.readUInt(table, table.count - 8, 8) == Format.checksum(table[0..<(table.count - 8)]) else {
            throw .corrupt("trigram table checksum")
        }
        var reader = Format.Reader(bytes: filesBytes, end: filesLength - 8)
        let slots = try reader.count()
        var files: [TreeIndex.File?] = []
        var numbers: [String: UInt32] = [:]
        files.reserveCapacity(slots)
        for number in 0..<slots {
            switch try reader.byte() {
            case 0: files.append(nil)
            case 1:
                let length = try reader.count()
                let path = String(decoding: try reader.bytes(length), as: UTF8.self)
                let fileSize = Int(clamping: try reader.varint())
                let zigzag = try reader.varint()
                let modified = Int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
                let inode = try reader.varint()
                files.append(TreeIndex.File(path: path, size: fileSize, modified: modified, inode: inode))
                numbers[path] = UInt32(number)
            default: throw .corrupt("bad file entry")
            }
        }
        guard reader.position == reader.end else { throw .corrupt("file table length") }
        self.files = files
        self.numbers = numbers
        self.table = table
        self.trigramCount = count
        self.postingsOffset = postingsOffset
        self.size = size
        self.read = read
    }

    /// The number of files indexed.
    public var fileCount: Int { numbers.count }

    /// The indexed file at `path`, with its number.
    public func entry(at path: String) -> (number: UInt32, file: TreeIndex.File)? {
        guard let number = numbers[path], let file = files[Int(number)] else { return nil }
        return (number, file)
    }

    /// The numbers of the files that can hold a match of `query`, or `nil` when any can.
    public func candidates(for query: LiteralQuery) throws(TreeIndexFormat.Error) -> Set<UInt32>? {
        try NGramIndex.units(satisfying: query) { key throws(TreeIndexFormat.Error) in try list(key) }
    }

    /// The posting list of `key` (empty when absent), read and checked.
    func list(_ key: UInt32) throws(TreeIndexFormat.Error) -> PostingList {
        var low = 0, high = trigramCount
        while low < high {
            let mid = (low + high) / 2
            if self.key(at: mid) < key { low = mid + 1 } else { high = mid }
        }
        guard low < trigramCount, self.key(at: low) == key else { return PostingList() }
        return try list(at: low)
    }

    private func key(at entry: Int) -> UInt32 {
        let base = entry * TreeIndexFormat.tableEntryLength
        return UInt32(table[base]) << 16 | UInt32(table[base + 1]) << 8 | UInt32(table[base + 2])
    }

    private func list(at entry: Int) throws(TreeIndexFormat.Error) -> PostingList {
        let base = entry * TreeIndexFormat.tableEntryLength
        let offset = Int(TreeIndexFormat.readUInt(table, base + 3, 4)), length = Int(TreeIndexFormat.readUInt(table, base + 7, 4))
        guard postingsOffset + offset + length <= size, length > 0 else { throw .corrupt("bad posting list") }
        let bytes = try read(postingsOffset + offset, length)
        guard TreeIndexFormat.readUInt(table, base + 11, 8) == TreeIndexFormat.checksum(bytes[...]) else { throw .corrupt("posting list checksum") }
        var reader = TreeIndexFormat.Reader(bytes: bytes, end: bytes.count)
        let count = try reader.count()
        var units: [UInt32] = []
        units.reserveCapacity(count)
        var last: UInt64 = 0
        for position in 0..<count {
            let value = try reader.varint()
            let unit = position == 0 ? value : last + value
            guard unit < UInt64(files.count), position == 0 || value > 0 else { throw .corrupt("bad posting") }
            units.append(UInt32(unit))
            last = unit
        }
        return PostingList(sortedUnits: units)
    }

    /// The whole index, every posting list read (for a refresh).
    public func loadAll() throws(TreeIndexFormat.Error) -> TreeIndex {
        var postings: [UInt32: PostingList] = [:]
        postings.reserveCapacity(trigramCount)
        for entry in 0..<trigramCount {
            let list = try list(at: entry)
            if !list.isEmpty { postings[key(at: entry)] = list }
        }
        return TreeIndex(files: files, trigrams: NGramIndex(postings: postings))
    }
}
