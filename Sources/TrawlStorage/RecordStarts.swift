/// Where each of a run of records stored back to back starts, read where it lies: a `u32` each
/// (``Layout/flat``, a stored catalog of version 5), or a `u32` base for each group of eight and
/// a byte each from it (``Layout/grouped``), which takes 1.5 bytes a record instead of 4 (a tenth
/// of a 1M-item catalog's forward index was its starts).
///
/// ```
/// flat       u32 start of each record, then the end of the last
/// grouped    u32 record count n, u32 group count g = ⌈n / 8⌉, u32 wide group count w, u32 end
///            of the last record; g × u32 bases; w × 8 × u32 starts; n × u8 offsets
/// ```
/// A group's base is its first record's start, and each record's offset its start less the
/// base; a group whose records span more than 255 bytes before its last start, or whose base has
/// the high bit set (past 2 GiB), is wide: its base has the high bit set and numbers its 8 starts
/// among the wide ones.
///
/// A view: whoever made it keeps the bytes alive and unchanged. Starts are not checked against
/// each other here; a reader checks each record's bounds as it reads it.
package struct RecordStarts: @unchecked Sendable { // reads memory its owner keeps immutable
    /// How the starts are stored (the raw value is the byte that says so, where one does).
    package enum Layout: UInt8, Sendable {
        case flat = 0
        case grouped = 1
    }

    /// Flat: the starts, then the end. Grouped: the bases, then the wide starts.
    private let words: UnsafePointer<UInt32>
    private let offsets: UnsafePointer<UInt8>?
    private let wideStarts: UnsafePointer<UInt32>
    private let wideCount: Int
    /// How many records there are.
    package let count: Int
    /// Where the last record ends.
    package let end: Int

    private static let groupLength = 8, wideFlag: UInt32 = 1 << 31

    /// The starts of `count` records in `bytes` (4-byte aligned), stored as `layout`; nil when
    /// the bytes are not of that many.
    package init?(_ bytes: UnsafeRawBufferPointer, count: Int, layout: Layout) {
        guard count >= 0, let base = bytes.baseAddress, Int(bitPattern: base) % 4 == 0 else { return nil }
        let words = base.assumingMemoryBound(to: UInt32.self)
        self.count = count
        switch layout {
        case .flat:
            guard bytes.count == 4 * (count + 1) else { return nil }
            self.words = words
            offsets = nil
            wideStarts = words
            wideCount = 0
            end = Int(words[count].littleEndian)
        case .grouped:
            guard bytes.count >= 16, Int(words[0].littleEndian) == count else { return nil }
            let groups = Int(words[1].littleEndian), wide = Int(words[2].littleEndian)
            guard groups == (count + Self.groupLength - 1) / Self.groupLength, wide <= groups,
                  bytes.count == 16 + 4 * groups + 4 * Self.groupLength * wide + count else { return nil }
            end = Int(words[3].littleEndian)
            self.words = words + 4
            wideStarts = words + 4 + groups
            wideCount = wide
            offsets = (base + 16 + 4 * groups + 4 * Self.groupLength * wide).assumingMemoryBound(to: UInt8.self)
        }
    }

    /// Where record `record` (below ``count``) starts; nil when its group names a wide group
    /// that is not there (a damaged file).
    @inline(__always)
    package func start(of record: Int) -> Int? {
        guard let offsets else { return Int(words[record].littleEndian) }
        let base = words[record / Self.groupLength].littleEndian
        guard base & Self.wideFlag != 0 else { return Int(base) + Int(offsets[record]) }
        let wide = Int(base & ~Self.wideFlag)
        guard wide < wideCount else { return nil }
        return Int(wideStarts[wide * Self.groupLength + record % Self.groupLength].littleEndian)
    }

    /// Where record `record` (below ``count``) ends: where the next starts, or ``end``.
    @inline(__always)
    package func end(of record: Int) -> Int? { record + 1 < count ? start(of: record + 1) : end }

    /// Starts loading what ``start(of:)`` reads for `record`.
    package func prefetchAddresses(of record: Int) -> (UnsafeRawPointer, UnsafeRawPointer?) {
        guard let offsets else { return (UnsafeRawPointer(words + record), nil) }
        return (UnsafeRawPointer(words + record / Self.groupLength), UnsafeRawPointer(offsets + record))
    }

    /// The starts `starts` of records that end at `end` in the smaller layout, and its bytes.
    package static func smaller(_ starts: [UInt32], end: UInt32) -> (layout: Layout, bytes: [UInt8]) {
        let grouped = grouped(starts, end: end)
        guard grouped.count >= 4 * (starts.count + 1) else { return (.grouped, grouped) }
        var flat: [UInt8] = []
        flat.reserveCapacity(4 * (starts.count + 1))
        for word in starts + [end] { StoredFormat.appendUInt(UInt64(word), 4, to: &flat) }
        return (.flat, flat)
    }

    /// The starts `starts` of records that end at `end`, stored grouped.
    package static func grouped(_ starts: [UInt32], end: UInt32) -> [UInt8] {
        let groups = (starts.count + groupLength - 1) / groupLength
        var bases: [UInt32] = [], wide: [UInt32] = [], offsets = [UInt8](repeating: 0, count: starts.count)
        bases.reserveCapacity(groups)
        for group in 0..<groups {
            let members = (group * groupLength)..<min(starts.count, (group + 1) * groupLength)
            let base = starts[members.lowerBound]
            if base < wideFlag, starts[members.upperBound - 1] - base <= 255 {
                bases.append(base)
                for record in members { offsets[record] = UInt8(starts[record] - base) }
            } else {
                bases.append(wideFlag | UInt32(wide.count / groupLength))
                wide += starts[members]
                wide += repeatElement(end, count: groupLength - members.count)
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + 4 * (bases.count + wide.count) + offsets.count)
        for word in [UInt32(starts.count), UInt32(groups), UInt32(wide.count / groupLength), end] + bases + wide {
            StoredFormat.appendUInt(UInt64(word), 4, to: &bytes)
        }
        return bytes + offsets
    }
}
