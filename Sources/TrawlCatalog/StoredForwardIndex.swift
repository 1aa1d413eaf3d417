import TrawlKernels
import TrawlStorage

/// A stored catalog's forward index read where it lies (``CatalogFormat`` versions 5 and 6): by internal
/// number, where the item's record starts (``RecordStarts``: grouped since version 6, flat
/// before); the records, each the word count of every field then the words, as varints; and each
/// item's length (its word count) in a byte, 255 for "read the record".
///
/// An item's words are decoded when it is ranked, and checked then: a record that does not fit
/// its bytes, or names a word the vocabulary lacks, reads as an item with no words.
/// A view: whoever made it keeps the bytes alive and unchanged.
struct StoredForwardIndex: @unchecked Sendable { // reads memory its owner keeps immutable
    private let starts: RecordStarts?
    private let records: UnsafeRawBufferPointer
    private let lengths: UnsafePointer<UInt8>?
    let slotCount: Int
    let fieldCount: Int
    private let wordCount: UInt32
    /// How many words the records hold together (the bytes of the records bound it).
    let totalWords: Int
    /// Where a record found damaged is noted.
    private let damage: StoredDamage?

    /// A forward index of no items.
    init(fieldCount: Int) {
        starts = nil
        records = UnsafeRawBufferPointer(start: nil, count: 0)
        lengths = nil
        slotCount = 0
        self.fieldCount = fieldCount
        wordCount = 0
        totalWords = 0
        damage = nil
    }

    /// The forward index of `slotCount` items of `fieldCount` fields whose words are below
    /// `wordCount`, from its three sections (the starts laid out as `startsLayout`); nil when
    /// their sizes do not fit that many items.
    init?(starts: UnsafeRawBufferPointer, startsLayout: RecordStarts.Layout, records: UnsafeRawBufferPointer, lengths: UnsafeRawBufferPointer,
          slotCount: Int, fieldCount: Int, wordCount: Int, totalWords: Int, damage: StoredDamage) {
        guard let recordStarts = RecordStarts(starts, count: slotCount, layout: startsLayout), lengths.count == slotCount,
              totalWords <= records.count else { return nil }
        self.starts = recordStarts
        self.records = records
        self.lengths = lengths.baseAddress?.assumingMemoryBound(to: UInt8.self)
        self.slotCount = slotCount
        self.fieldCount = fieldCount
        self.wordCount = UInt32(clamping: wordCount)
        self.totalWords = totalWords
        self.damage = damage
    }

    /// Where item `item`'s record lies, nil when its starts do not fit the records.
    private func record(of item: Int) -> Range<Int>? {
        guard let starts, item >= 0, item < slotCount, let start = starts.start(of: item), let end = starts.end(of: item),
              start <= end, end <= records.count else { return nil }
        return start..<end
    }

    /// Each item's length in a byte, `slotCount` of them (255: read the record), for passes
    /// over many items.
    var lengthBytes: UnsafePointer<UInt8>? { lengths }

    /// How many words item `item` holds (the rank's length).
    func length(of item: Int) -> Int {
        guard let lengths, item >= 0, item < slotCount else { return 0 }
        let length = lengths[item]
        if length < 255 { return Int(length) }
        var counts = [UInt32](repeating: 0, count: fieldCount)
        return fieldLengths(of: item, into: &counts) ? counts.reduce(0) { $0 + Int($1) } : 0
    }

    /// Sets `counts` (one per field) to item `item`'s word count by field; false (and zeros)
    /// when its record is damaged, as when its counts claim more words than its bytes hold (a
    /// byte at least each, as ``decode(_:words:bounds:)`` checks).
    func fieldLengths(of item: Int, into counts: inout [UInt32]) -> Bool {
        var decoded = false
        if let range = record(of: item) {
            var decoder = VarintDecoder(UnsafeRawBufferPointer(rebasing: records[range]))
            decoded = counts.withUnsafeMutableBufferPointer { counts in
                (try? decoder.decode(into: counts, ascending: false)) != nil && counts.reduce(0) { $0 + Int($1) } <= range.count
            }
        }
        if !decoded {
            damage?.note(.corrupt("a forward index record"))
            counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        return decoded
    }

    /// Decodes item `item`'s words into `words` and its field bounds (positions in `words`,
    /// `fieldCount + 1` of them) into `bounds`; a damaged record gives no words, and false.
    @discardableResult
    func decode(_ item: Int, words: inout [UInt32], bounds: inout [UInt32]) -> Bool {
        words.removeAll(keepingCapacity: true)
        bounds.removeAll(keepingCapacity: true)
        bounds.append(0)
        guard let range = record(of: item) else { return emptyBounds(&bounds) }
        var decoder = VarintDecoder(UnsafeRawBufferPointer(rebasing: records[range]))
        var total = 0
        for _ in 0..<fieldCount {
            guard let count = try? decoder.next(), total + Int(count) <= range.count else { return emptyBounds(&bounds) }
            total += Int(count)
            bounds.append(UInt32(total))
        }
        // Decoded into the caller's array, whose room stays from item to item.
        words.append(contentsOf: repeatElement(0, count: total))
        let largest = words.withUnsafeMutableBufferPointer { try? decoder.decode(into: $0, ascending: false) }
        guard let largest, total == 0 || largest < wordCount, decoder.isAtEnd else {
            words.removeAll(keepingCapacity: true)
            return emptyBounds(&bounds)
        }
        return true
    }

    private func emptyBounds(_ bounds: inout [UInt32]) -> Bool {
        damage?.note(.corrupt("a forward index record"))
        bounds = [UInt32](repeating: 0, count: fieldCount + 1)
        return false
    }

    /// Every item's words, field bounds and length, as ``Catalog`` keeps them in memory, decoded
    /// in one pass over the records (each where its start says); nil when a record is damaged.
    func allRecords() -> (words: [UInt32], bounds: [UInt32], lengths: [UInt32])? {
        guard let starts, lengths != nil else { return slotCount == 0 ? ([], [], []) : nil }
        let stride = fieldCount + 1, total = totalWords
        var decoder = VarintDecoder(records)
        var bounds = [UInt32](), lengths = [UInt32]()
        bounds.reserveCapacity((slotCount + slotCount / 8) * stride)
        lengths.reserveCapacity(slotCount + slotCount / 8)
        var isWhole = true
        let words = [UInt32](unsafeUninitializedCapacity: total + total / 8) { words, initialized in
            var used = 0
            defer { initialized = used }
            for slot in 0..<slotCount {
                guard starts.start(of: slot) == decoder.offset else { isWhole = false; return }
                bounds.append(UInt32(used))
                for _ in 0..<fieldCount {
                    guard let count = try? decoder.next(), Int(bounds[bounds.count - 1]) + Int(count) <= total else { isWhole = false; return }
                    bounds.append(bounds[bounds.count - 1] + count)
                }
                let end = Int(bounds[bounds.count - 1])
                guard end <= total, let largest = try? decoder.decode(into: UnsafeMutableBufferPointer(rebasing: words[used..<end]), ascending: false),
                      end == used || largest < wordCount else { isWhole = false; return }
                used = end
                lengths.append(UInt32(end - Int(bounds[bounds.count - stride])))
            }
            isWhole = used == total && decoder.isAtEnd && starts.end == decoder.offset
        }
        return isWhole ? (words, bounds, lengths) : nil
    }

    /// Starts loading item `item`'s start.
    func prefetchStart(of item: Int) {
        guard let starts, item >= 0, item < slotCount else { return }
        let (first, second) = starts.prefetchAddresses(of: item)
        trawl_prefetch(first, 8)
        if let second { trawl_prefetch(second, 2) }
    }

    /// Starts loading item `item`'s record (reading its start).
    func prefetchRecord(of item: Int) {
        guard let range = record(of: item), let base = records.baseAddress else { return }
        trawl_prefetch(base + range.lowerBound, min(range.count, 256))
    }
}
