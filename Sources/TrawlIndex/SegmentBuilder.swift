import Dispatch
import TrawlFiles
import TrawlConcurrency
import TrawlStorage

/// Builds the bytes of a tree's segment (as ``TreeIndexFormat/encodeSegment(_:)`` writes them)
/// from files' trigram keys, with no posting list per trigram in between, on every core.
///
/// A worker groups each file's keys by their first byte (``prepare(_:)``); at the end, each of
/// sixteen parts of the key space gathers its keys from every file into a bucket per first byte,
/// sorts each bucket by the keys' other two bytes (by counting, with a 256 KB count that stays in
/// cache, when it holds many postings; outright when few) and encodes it. A counting sort over all
/// 2^24 keys at once missed the cache on nearly every posting: a large part of a tree's build.
struct SegmentBuilder {
    /// Parts of the key space, encoded in parallel (16 first bytes each).
    static let parts = 16

    /// A file's distinct keys as a worker prepares them.
    struct FileKeys: Sendable {
        /// Grouped by first byte, those ascending.
        var keys: [UInt32]
        /// Where each part's keys begin in `keys`, and the end.
        var partStarts: [Int]
    }

    private var files: [FileKeys] = []
    private var numbers: [UInt32] = []
    private var keyCount = 0

    /// The files added so far.
    var fileCount: Int { files.count }
    /// Whether no file added has a key (its segment would list nothing).
    var isEmpty: Bool { keyCount == 0 }

    /// A file's distinct trigram keys, ready for ``add(_:number:)``. Runs on the workers.
    static func prepare(_ keys: [UInt32]) -> FileKeys {
        var starts = [Int](repeating: 0, count: 257)
        for key in keys { starts[Int(key >> 16 & 0xFF) + 1] += 1 }
        for bucket in 0..<256 { starts[bucket + 1] += starts[bucket] }
        let partStarts = (0...parts).map { starts[$0 * 256 / parts] }
        let grouped = [UInt32](unsafeUninitializedCapacity: keys.count) { buffer, count in
            for key in keys {
                let bucket = Int(key >> 16 & 0xFF)
                buffer[starts[bucket]] = key
                starts[bucket] += 1
            }
            count = keys.count
        }
        return FileKeys(keys: grouped, partStarts: partStarts)
    }

    /// Adds a file, numbered above every file added before it (the lists come out sorted).
    mutating func add(_ file: FileKeys, number: UInt32) {
        precondition(numbers.last.map { $0 < number } ?? true, "files are added by ascending number")
        files.append(file)
        numbers.append(number)
        keyCount += file.keys.count
    }

    /// The segment's bytes. A first byte's postings are counting-sorted by key, or sorted
    /// outright when there are fewer than `sortingBucketsBelow`.
    func encode(sortingBucketsBelow: Int = 2048) -> [UInt8] {
        typealias Format = TreeIndexFormat
        let parts = SegmentBuilder.parts, bucketsPerPart = 256 / parts
        let encoded = SlotArray<(table: [UInt8], lists: [UInt8], keys: Int)>(count: parts)
        let files = self.files, fileNumbers = self.numbers
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            // The part's postings from every file, by first byte: key (its last two bytes) and file,
            // counted first and then placed in two flat arrays (an array per first byte grown by
            // appending checked its uniqueness and capacity twice per posting: a tenth of a build).
            let firstByte = part * bucketsPerPart
            var bucketStarts = [Int](repeating: 0, count: bucketsPerPart + 1)
            for file in files {
                for index in file.partStarts[part]..<file.partStarts[part + 1] {
                    bucketStarts[Int(file.keys[index] >> 16 & 0xFF) - firstByte + 1] += 1
                }
            }
            for bucket in 0..<bucketsPerPart { bucketStarts[bucket + 1] += bucketStarts[bucket] }
            let postings = bucketStarts[bucketsPerPart]
            var placing = bucketStarts
            let lowsStorage = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: postings)
            let numbersStorage = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: postings)
            defer {
                lowsStorage.deallocate()
                numbersStorage.deallocate()
            }
            for (offset, file) in files.enumerated() {
                let number = fileNumbers[offset]
                file.keys.withUnsafeBufferPointer { keys in
                    for key in keys[file.partStarts[part]..<file.partStarts[part + 1]] {
                        let bucket = Int(key >> 16 & 0xFF) - firstByte
                        let at = placing[bucket]
                        lowsStorage[at] = UInt16(truncatingIfNeeded: key)
                        numbersStorage[at] = number
                        placing[bucket] = at + 1
                    }
                }
            }
            let lows = (0..<bucketsPerPart).map { UnsafeBufferPointer(rebasing: lowsStorage[bucketStarts[$0]..<bucketStarts[$0 + 1]]) }
            let numbers = (0..<bucketsPerPart).map { UnsafeBufferPointer(rebasing: numbersStorage[bucketStarts[$0]..<bucketStarts[$0 + 1]]) }
            var table: [UInt8] = []
            var written = 0, keyCount = 0
            // counts[low + 1]: where low's files begin once summed; placing moves it on to where
            // they end, which is where the next low's begin. (32-bit, through a pointer: it must
            // stay in cache, and the placing runs once per posting.)
            let counts = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << 16 + 1)
            defer { counts.deallocate() }
            // At most five bytes per varint: each posting's, and each list's count.
            let lists = [UInt8](unsafeUninitializedCapacity: 10 * postings) { out, initialized in
                func varint(_ value: UInt32) {
                    var value = value
                    while value >= 0x80 {
                        out[written] = UInt8(value & 0x7F) | 0x80
                        written += 1
                        value >>= 7
                    }
                    out[written] = UInt8(value)
                    written += 1
                }
                // A key's list: its count and its files as gaps, then its table entry (its offset
                // counts from the part's lists: moved below).
                func emit(_ low: Int, bucket: Int, _ units: ArraySlice<UInt32>) {
                    let listStart = written
                    varint(UInt32(units.count))
                    var last: UInt32 = 0
                    for (position, unit) in zip(units.indices, units) {
                        varint(position == units.startIndex ? unit : unit - last)
                        last = unit
                    }
                    Format.appendTableEntry(key: UInt32(part * bucketsPerPart + bucket) << 16 | UInt32(low), offset: listStart,
                                            length: written - listStart,
                                            checksum: StoredFormat.checksum(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: out[listStart..<written]))),
                                            to: &table)
                    keyCount += 1
                }
                for bucket in 0..<bucketsPerPart where !lows[bucket].isEmpty {
                    let bucketLows = lows[bucket], bucketNumbers = numbers[bucket]
                    if bucketLows.count < sortingBucketsBelow {
                        // Few postings (a refresh's segment): sorting them costs less than
                        // clearing and scanning a count per low.
                        let pairs = zip(bucketLows, bucketNumbers).map { UInt64($0) << 32 | UInt64($1) }.sorted()
                        let units = pairs.map { UInt32(truncatingIfNeeded: $0) }
                        var start = 0
                        while start < pairs.count {
                            var end = start + 1
                            while end < pairs.count && pairs[end] >> 32 == pairs[start] >> 32 { end += 1 }
                            emit(Int(pairs[start] >> 32), bucket: bucket, units[start..<end])
                            start = end
                        }
                        continue
                    }
                    counts.initialize(repeating: 0, count: 1 << 16 + 1)
                    for low in bucketLows { counts[Int(low) + 1] &+= 1 }
                    var running: UInt32 = 0
                    for low in 0..<(1 << 16) {
                        let count = counts[low + 1]
                        counts[low + 1] = running
                        running &+= count
                    }
                    let sorted = [UInt32](unsafeUninitializedCapacity: bucketLows.count) { placed, count in
                        for (low, number) in zip(bucketLows, bucketNumbers) {
                            let at = Int(low) + 1
                            placed[Int(counts[at])] = number
                            counts[at] &+= 1
                        }
                        count = bucketLows.count
                    }
                    var start = 0
                    for low in 0..<(1 << 16) {
                        let end = Int(counts[low + 1])
                        guard end > start else { continue }
                        emit(low, bucket: bucket, sorted[start..<end])
                        start = end
                    }
                }
                initialized = written
            }
            encoded.set(part, (table, lists, keyCount))
        }
        var table: [UInt8] = [], lists: [UInt8] = []
        var keyCount = 0
        for part in 0..<parts {
            let (partTable, partLists, partKeys) = encoded.take(part)!
            var moved = partTable
            // Each entry's list offset counts from the part's lists: make it count from the first.
            for entry in 0..<partKeys {
                let at = entry * Format.tableEntryLength + 3
                let offset = StoredFormat.readUInt(moved, at, 4) + UInt64(lists.count)
                for byte in 0..<4 { moved[at + byte] = UInt8(offset >> (8 * UInt64(byte)) & 0xFF) }
            }
            table += moved
            lists += partLists
            keyCount += partKeys
        }
        return Format.segment(table: table, keyCount: keyCount, lists: lists)
    }
}
