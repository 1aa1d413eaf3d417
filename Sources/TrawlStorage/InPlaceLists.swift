/// Lists of strictly ascending values as ``StoredSections/Writer/append(inPlaceLists:)`` stored
/// them (``PackedGaps``), or as it stored them before (``Encoding/varints``), read where they lie:
/// a list is decoded only when asked for, and checked then, so opening them costs nothing and a
/// damaged list reads as empty without spoiling the others.
///
/// Each list is found through two tables of ``RecordStarts``: where its values are numbered among
/// all the lists' values, and where its bytes start. Version 5 stored them flat, one after the
/// other; since version 6 the section holds a `u32` length of the first table, a byte for each
/// table's ``RecordStarts/Layout`` (0 flat, 1 grouped: the smaller), 2 zero bytes, the first
/// table, zero bytes to a multiple of 4, then the second.
///
/// A view: whoever made it keeps the bytes alive and unchanged.
package struct InPlaceLists: @unchecked Sendable { // reads memory its owner keeps immutable
    private let counts: RecordStarts?
    private let offsets: RecordStarts?
    private let bytes: UnsafeRawBufferPointer
    /// How many lists there are.
    package let count: Int
    private let limit: UInt64
    private let encoding: Encoding

    /// How each list's values are stored.
    package enum Encoding: Sendable {
        /// Gaps less one, each a varint (a stored catalog of version 5).
        case varints
        /// As ``PackedGaps`` stores them.
        case packedGaps
    }

    /// No lists.
    package init() {
        counts = nil
        offsets = nil
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        count = 0
        limit = 0
        encoding = .packedGaps
    }

    /// The `count` lists whose starts section is `starts` (8-byte aligned) and whose values,
    /// each below `limit`, are in `lists`, stored as `encoding` says; nil when the starts section
    /// is not of that many lists.
    package init?(starts: UnsafeRawBufferPointer, lists: UnsafeRawBufferPointer, count: Int, below limit: Int,
                  encoding: Encoding = .packedGaps) {
        guard count >= 0 else { return nil }
        switch encoding {
        case .varints:
            guard starts.count == 8 * (count + 1),
                  let counts = RecordStarts(UnsafeRawBufferPointer(rebasing: starts[..<(4 * (count + 1))]), count: count, layout: .flat),
                  let offsets = RecordStarts(UnsafeRawBufferPointer(rebasing: starts[(4 * (count + 1))...]), count: count, layout: .flat) else { return nil }
            (self.counts, self.offsets) = (counts, offsets)
        case .packedGaps:
            guard starts.count >= 8 else { return nil }
            let length = Int(StoredFormat.readUInt(starts, 0, 4)), second = 8 + (length + 3) / 4 * 4
            let layouts = [starts[4], starts[5]].map(RecordStarts.Layout.init(rawValue:))
            guard let first = layouts[0], let other = layouts[1], second <= starts.count,
                  let counts = RecordStarts(UnsafeRawBufferPointer(rebasing: starts[8..<(8 + length)]), count: count, layout: first),
                  let offsets = RecordStarts(UnsafeRawBufferPointer(rebasing: starts[second...]), count: count, layout: other) else { return nil }
            (self.counts, self.offsets) = (counts, offsets)
        }
        bytes = lists
        self.count = count
        self.limit = UInt64(max(0, limit))
        self.encoding = encoding
    }

    /// How many values list `list` holds, 0 when its starts do not fit the bytes (a damaged file).
    package func valueCount(of list: Int) -> Int {
        guard let extent = extent(of: list) else { return 0 }
        return extent.values.count
    }

    /// Where list `list`'s values are numbered among all the lists' values.
    package func firstValue(of list: Int) -> Int { extent(of: list)?.values.lowerBound ?? 0 }

    /// How many values the lists hold together (as their starts say).
    package var totalCount: Int { counts?.end ?? 0 }

    /// The values of list `list`, ascending; nil when the list is not there or is damaged (its
    /// starts do not fit the bytes, or its bytes do not decode to them).
    package func values(of list: Int) -> [UInt32]? {
        guard let extent = extent(of: list) else { return nil }
        var offset = extent.bytes.lowerBound
        guard let values = try? decode(count: extent.values.count, at: &offset), offset == extent.bytes.upperBound else { return nil }
        return values
    }

    /// Every list's values, decoded in one pass over the bytes (each list where its starts say);
    /// nil when a list is damaged.
    package func allValues() -> [[UInt32]]? {
        guard counts != nil, offsets != nil else { return count == 0 ? [] : nil }
        var lists: [[UInt32]] = []
        lists.reserveCapacity(count)
        var valuesBefore = 0, offset = 0
        for list in 0..<count {
            // Each list where the one before ended, in values and in bytes.
            guard let extent = extent(of: list), extent.bytes.lowerBound == offset, extent.values.lowerBound == valuesBefore,
                  let values = try? decode(count: extent.values.count, at: &offset), offset == extent.bytes.upperBound else { return nil }
            valuesBefore = extent.values.upperBound
            lists.append(values)
        }
        return offset == bytes.count ? lists : nil
    }

    /// The `count` values of the list `offset` bytes into the lists; `offset` moves past it.
    private func decode(count: Int, at offset: inout Int) throws(StoredFormatError) -> [UInt32] {
        switch encoding {
        case .packedGaps:
            return try PackedGaps.decode(bytes, at: &offset, count: count, below: limit)
        case .varints:
            var decoder = VarintDecoder(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            let values = try decoder.ascendingList(count: count, below: limit)
            offset += decoder.offset
            return values
        }
    }

    /// List `list`'s value numbers and bytes, checked against each other and the section (as
    /// many values as the bytes can hold, and no more than `limit`: they are distinct and below
    /// it); nil when they do not fit.
    private func extent(of list: Int) -> (values: Range<Int>, bytes: Range<Int>)? {
        guard list >= 0, list < count, let counts, let offsets, let first = counts.start(of: list), let end = counts.end(of: list),
              let start = offsets.start(of: list), let stop = offsets.end(of: list) else { return nil }
        // Within the values the lists hold together (what tags beside them are counted by).
        guard first <= end, end <= totalCount, start <= stop, stop <= bytes.count, UInt64(end - first) <= limit else { return nil }
        switch encoding {
        case .packedGaps: guard PackedGaps.fewestBytes(count: end - first) <= stop - start else { return nil }
        case .varints: guard end - first <= stop - start else { return nil }
        }
        return (first..<end, start..<stop)
    }
}
