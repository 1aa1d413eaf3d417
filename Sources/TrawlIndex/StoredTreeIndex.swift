import TrawlFiles
import TrawlMatch
import TrawlStorage
import TrawlNGram

/// A tree's stored index opened for queries: the manifest (the listing) and each segment's header
/// and trigram table are read and checked at once; a posting list is read (and checked) only when
/// a query needs it. A refresh, which queries nothing, opens it without the tables.
package struct StoredTreeIndex: Sendable {
    /// Reads `count` bytes at `offset` of a stored file.
    package typealias ReadBytes = @Sendable (_ offset: Int, _ count: Int) throws(TreeIndexFormat.Error) -> [UInt8]
    /// Maps `count` bytes at `offset` of a stored file, or `nil` (then they are read).
    typealias MapBytes = @Sendable (_ offset: Int, _ count: Int) -> StoredBytes?

    package let manifest: TreeManifest
    /// Which stored state this is (``TreeIndexFormat/identity(ofManifest:)``): a tree's watcher
    /// says what changed since a state it names so.
    package let identity: UInt64
    let segments: [StoredSegment]

    /// Opens the index whose manifest is `manifest`; `segment` gives a reader of each segment file
    /// it names. Without `readingTables` only the segments' headers are read and checked; a
    /// segment's table is then read (and checked) by each query or merge that needs it.
    package init(manifest bytes: [UInt8], key: UserKey, readingTables: Bool = true,
                segment: (TreeManifest.Segment) throws(TreeIndexFormat.Error) -> ReadBytes) throws(TreeIndexFormat.Error) {
        try self.init(manifest: bytes, key: key, readingTables: readingTables, segmentFile: { reference throws(TreeIndexFormat.Error) in (try segment(reference), nil) })
    }

    /// Opens it as above, with segments that can also be mapped (`segmentFile` gives a reader
    /// and a mapper of each).
    init(manifest bytes: [UInt8], key: UserKey, readingTables: Bool,
         segmentFile: (TreeManifest.Segment) throws(TreeIndexFormat.Error) -> (read: ReadBytes, map: MapBytes?)) throws(TreeIndexFormat.Error) {
        let manifest = try TreeIndexFormat.decodeManifest(bytes, key: key)
        var segments: [StoredSegment] = []
        for reference in manifest.segments {
            let file = try segmentFile(reference)
            let opened = try StoredSegment(reference, numberLimit: reference.numberLimit, read: file.read, map: file.map)
            segments.append(readingTables ? try opened.withTable() : opened)
        }
        self.manifest = manifest
        self.identity = TreeIndexFormat.identity(ofManifest: bytes)
        self.segments = segments
    }

    /// The tree's files, folders and watched paths as last indexed.
    package var listing: TreeListing { manifest.listing }

    /// The number of trigram posting lists, over all segments.
    package var trigramListCount: Int { segments.reduce(0) { $0 + $1.count } }

    /// The numbers of the files that can hold a match of `query`, or `nil` when any can. A file's
    /// postings are all in one segment, so each segment answers for its files.
    package func candidates(for query: LiteralQuery) throws(TreeIndexFormat.Error) -> PostingList? {
        var all: [UInt32] = []
        for opened in segments {
            let segment = try opened.withTable()
            guard let found = try NGramIndex.units(satisfying: query, size: { segment.listLength($0) },
                                                   units: { key, within throws(TreeIndexFormat.Error) in try segment.units(of: key, within: within) }) else {
                return nil
            }
            all = NGramIndex.union(all, found)
        }
        return PostingList(sortedUnits: all)
    }

    /// The keys of each file `isLive` keeps in the segments at `offsets`, by ascending number.
    func fileKeys(ofSegments offsets: some Sequence<Int>, isLive: (UInt32) -> Bool) throws(TreeIndexFormat.Error) -> [(number: UInt32, keys: [UInt32])] {
        var keys: [UInt32: [UInt32]] = [:]
        for offset in offsets {
            try segments[offset].withTable().forEachList { key, units in
                for unit in units.units where isLive(unit) { keys[unit, default: []].append(key) }
            }
        }
        return keys.sorted { $0.key < $1.key }.map { (number: $0.key, keys: $0.value) }
    }
}

/// One segment file opened: its header checked, then its table read and checked (`withTable`),
/// its lists read on demand.
struct StoredSegment: Sendable {
    /// `nil` until read (or mapped).
    private(set) var storedTable: StoredBytes?
    let count: Int
    let postingsOffset: Int
    let size: Int
    let numberLimit: UInt32
    let read: StoredTreeIndex.ReadBytes
    let map: StoredTreeIndex.MapBytes?

    init(_ reference: TreeManifest.Segment, numberLimit: UInt32, read: @escaping StoredTreeIndex.ReadBytes,
         map: StoredTreeIndex.MapBytes? = nil) throws(TreeIndexFormat.Error) {
        typealias Format = TreeIndexFormat
        let header = try read(0, min(reference.size, Format.headerLength))
        let count = try Format.checkHeader(header, magic: Format.segmentMagic, total: reference.size)
        guard StoredFormat.readUInt(header, Format.headerLength - 8, 8) == reference.headerChecksum else { throw .corrupt("segment does not belong to this index") }
        let postingsLength = Int(clamping: StoredFormat.readUInt(header, 20, 8))
        // No more trigrams than three bytes make (a header may claim billions).
        guard count <= reference.size / Format.tableEntryLength, count <= 1 << 24 else { throw .corrupt("bad layout") }
        let postingsOffset = Format.headerLength + count * Format.tableEntryLength + 8
        guard postingsOffset <= reference.size, postingsLength == reference.size - postingsOffset else { throw .corrupt("segment length") }
        self.count = count
        self.postingsOffset = postingsOffset
        self.size = reference.size
        self.numberLimit = numberLimit
        self.read = read
        self.map = map
    }

    /// The table's bytes (its checksum last); empty until read.
    private var table: UnsafeRawBufferPointer { storedTable?.bytes ?? UnsafeRawBufferPointer(start: nil, count: 0) }

    /// The segment with its trigram table read (or mapped) and checked.
    func withTable() throws(TreeIndexFormat.Error) -> StoredSegment {
        guard storedTable == nil else { return self }
        typealias Format = TreeIndexFormat
        let length = postingsOffset - Format.headerLength
        let stored: StoredBytes
        if let mapped = map?(Format.headerLength, length) { stored = mapped } else { stored = StoredBytes(copying: try read(Format.headerLength, length)) }
        let table = stored.bytes
        guard table.count == length,
              StoredFormat.readUInt(table, table.count - 8, 8) == StoredFormat.checksum(UnsafeRawBufferPointer(rebasing: table[0..<(table.count - 8)])),
              !stored.faulted else {
            throw .corrupt("trigram table checksum")
        }
        var opened = self
        opened.storedTable = stored
        return opened
    }

    /// The units of `key`'s list (none when absent), its checksum checked; with `within`
    /// (ascending), only those also in it, decoded no further than its last, without making the
    /// whole list.
    func units(of key: UInt32, within: [UInt32]? = nil) throws(TreeIndexFormat.Error) -> [UInt32] {
        precondition(storedTable != nil, "a segment's table is read before its lists")
        // A file that shrank under its mapping reads as zeros from then on: not trusted.
        guard storedTable?.faulted != true else { throw .corrupt("truncated") }
        guard let entry = entry(of: key) else {
            // Keys read as zeros (the file shrank during the search) are no proof of absence.
            guard storedTable?.faulted != true else { throw .corrupt("truncated") }
            return []
        }
        let range = try listRange(at: entry)
        let found = try units(at: entry, in: try read(postingsOffset + range.lowerBound, range.count), range: 0..<range.count, within: within)
        guard storedTable?.faulted != true else { throw .corrupt("truncated") }
        return found
    }

    /// The stored length of `key`'s list in bytes (0 when absent; unchecked, a measure to order
    /// lookups by).
    func listLength(_ key: UInt32) -> Int {
        entry(of: key).map(storedLength(at:)) ?? 0
    }

    /// The length the table gives for an entry's list (unchecked).
    private func storedLength(at entry: Int) -> Int {
        Int(StoredFormat.readUInt(table, entry * TreeIndexFormat.tableEntryLength + 7, 4))
    }

    /// The table entry of `key`, by bisection.
    private func entry(of key: UInt32) -> Int? {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if self.key(at: mid) < key { low = mid + 1 } else { high = mid }
        }
        return low < count && self.key(at: low) == key ? low : nil
    }

    func key(at entry: Int) -> UInt32 {
        let base = entry * TreeIndexFormat.tableEntryLength
        return UInt32(table[base]) << 16 | UInt32(table[base + 1]) << 8 | UInt32(table[base + 2])
    }

    /// Where an entry's list is in the postings, checked against the segment's size.
    private func listRange(at entry: Int) throws(TreeIndexFormat.Error) -> Range<Int> {
        let base = entry * TreeIndexFormat.tableEntryLength
        let offset = Int(StoredFormat.readUInt(table, base + 3, 4)), length = storedLength(at: entry)
        guard postingsOffset + offset + length <= size, length > 0 else { throw .corrupt("bad posting list") }
        return offset..<(offset + length)
    }

    /// Every list with its key, in key order, from one read of the postings (a merge reads them all).
    func forEachList(_ body: (UInt32, PostingList) -> Void) throws(TreeIndexFormat.Error) {
        precondition(storedTable != nil, "a segment's table is read before its lists")
        let postings = try read(postingsOffset, size - postingsOffset)
        for entry in 0..<count { body(key(at: entry), PostingList(sortedUnits: try units(at: entry, in: postings, range: try listRange(at: entry)))) }
    }

    /// An entry's units from the bytes at `range` of `bytes`, its checksum checked (over all of
    /// them); with `within` (ascending), only those also in it, decoded no further than its last.
    private func units(at entry: Int, in bytes: [UInt8], range: Range<Int>, within: [UInt32]? = nil) throws(TreeIndexFormat.Error) -> [UInt32] {
        let base = entry * TreeIndexFormat.tableEntryLength
        guard StoredFormat.readUInt(table, base + 11, 8) == StoredFormat.checksum(bytes[range]) else { throw .corrupt("posting list checksum") }
        guard let units = EncodedPostings.units(bytes, range, limit: numberLimit, within: within) else { throw .corrupt("bad posting list") }
        return units
    }
}
