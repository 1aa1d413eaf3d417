import Testing
import TrawlTestSupport
@testable import TrawlCatalog
import TrawlStorage

/// The parts of a stored catalog's word index laid out anew in version 6: postings in packed
/// blocks (``PackedGaps``), field tags in the fewest bits (``PackedTags``) and the forward
/// index's record starts grouped (``RecordStarts``), each against the values it stored, and read
/// from damaged bytes without a crash.
@Suite struct StoredIndexLayoutTests {
    /// `lists` stored by the section writer, then handed to `body` as the starts and lists
    /// sections, each 8-byte aligned.
    static func withStored<Result>(_ lists: [[UInt32]], _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        var writer = StoredSections.Writer()
        writer.append(inPlaceLists: lists)
        let bytes = writer.parts.flatMap { $0 }
        let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(8, bytes.count), alignment: 8)
        defer { aligned.deallocate() }
        aligned.copyBytes(from: bytes)
        let reader = try StoredSections.Reader(body: UnsafeRawBufferPointer(rebasing: aligned[..<bytes.count]), expected: 2)
        return try body(try reader.bytes(0), try reader.bytes(1))
    }

    /// Lists of every shape a block meets: empty, one value, a block less one, one, one more,
    /// dense runs (gaps of no bits), sparse ones, and values up to the limit.
    static func randomLists(_ generator: inout SeededGenerator, limit: UInt32) -> [[UInt32]] {
        let lengths = [0, 1, 2, 127, 128, 129, 255, 256, 257, 1000, 5000]
        return lengths.flatMap { length in
            [1.0, 0.5, 0.01, 0.0001].map { density -> [UInt32] in
                var values = Set<UInt32>()
                let span = min(UInt64(limit), UInt64(Double(length) / density) + 1)
                let low = UInt64(limit) - span
                // No more values than the span holds.
                while values.count < min(length, Int(span)) { values.insert(UInt32(low + UInt64.random(in: 0..<span, using: &generator))) }
                return values.sorted()
            }
        }
    }

    @Test func listsReadInPlaceAreTheListsStored() throws {
        var generator = SeededGenerator(seed: PropertyTestSettings.seed(default: 61))
        for limit in [UInt32(10_000), 2_000_000, UInt32.max - 1] {
            let lists = Self.randomLists(&generator, limit: limit)
            try Self.withStored(lists) { starts, bytes in
                let stored = try #require(InPlaceLists(starts: starts, lists: bytes, count: lists.count, below: Int(limit)))
                for (index, list) in lists.enumerated() {
                    #expect(stored.valueCount(of: index) == list.count)
                    #expect(stored.values(of: index) == list, "list \(index) of \(list.count) values below \(limit)")
                }
                #expect(stored.allValues() == lists)
                #expect(stored.totalCount == lists.reduce(0) { $0 + $1.count })
            }
        }
    }

    @Test func aDenseListTakesItsBitsNotAByteAValue() throws {
        // Every other number up to 100,000: gaps of one bit where varints take a byte.
        let list = (0..<50_000).map { UInt32($0 * 2) }
        try Self.withStored([list]) { _, bytes in
            #expect(bytes.count < list.count / 6, "\(bytes.count) bytes for \(list.count) values")
        }
    }

    @Test func damagedListsReadAsEmptyOrAsAscendingValuesBelowTheLimit() throws {
        var generator = SeededGenerator(seed: PropertyTestSettings.seed(default: 62))
        let limit: UInt32 = 3_000
        let lists = Self.randomLists(&generator, limit: limit).filter { !$0.isEmpty }
        var writer = StoredSections.Writer()
        writer.append(inPlaceLists: lists)
        let original = writer.parts.flatMap { $0 }
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                // The table's 8 + 48 bytes stay whole: damage goes to the starts and the lists.
                let place = Int.random(in: 56..<bytes.count, using: &generator)
                bytes[place] = UInt8.random(in: 0...255, using: &generator)
            }
            try bytes.withUnsafeBytes { raw in
                let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 8)
                defer { aligned.deallocate() }
                aligned.copyMemory(from: raw)
                let reader = try StoredSections.Reader(body: UnsafeRawBufferPointer(aligned), expected: 2)
                // Past the checksums, as a file made to match them would be.
                let starts = UnsafeRawBufferPointer(rebasing: reader.body[reader.range(0)])
                let listBytes = UnsafeRawBufferPointer(rebasing: reader.body[reader.range(1)])
                guard let stored = InPlaceLists(starts: starts, lists: listBytes, count: lists.count, below: Int(limit)) else { return }
                for index in lists.indices {
                    let values = stored.values(of: index) ?? []
                    #expect(values.isEmpty || values.count == stored.valueCount(of: index))
                    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 } && values.allSatisfy { $0 < limit })
                }
                if let all = stored.allValues() { #expect(all.count == lists.count) }
            }
        }
    }

    @Test func aBlockWiderThan32BitsOrPastTheBytesIsDamage() throws {
        let list = (0..<200).map { UInt32($0 * 3) }
        var lists = [UInt8]()
        PackedGaps.append(list, to: &lists)
        #expect(lists[0] == 2, "gaps of two less one are two bits")
        var offset = 0
        let values = try lists.withUnsafeBytes { try PackedGaps.decode($0, at: &offset, count: list.count, below: 600) }
        #expect(values == list && offset == lists.count)
        for (damaged, what) in [({ (bytes: inout [UInt8]) in bytes[0] = 33 }, "width"), ({ $0[0] = 32 }, "past the bytes"),
                                ({ $0.removeLast() }, "truncated")] as [((inout [UInt8]) -> Void, String)] {
            var bytes = lists
            damaged(&bytes)
            var offset = 0
            #expect(throws: StoredFormatError.self, "\(what)") { try bytes.withUnsafeBytes { try PackedGaps.decode($0, at: &offset, count: list.count, below: 600) } }
        }
        // Two blocks claimed where the first takes every byte: damage, not a read past them.
        var twoBlocks = [UInt8]()
        PackedGaps.append((0..<256).map { UInt32($0 * 3) }, to: &twoBlocks)
        let firstBlock = Array(twoBlocks.prefix(1 + 16 * Int(twoBlocks[0])))
        offset = 0
        #expect(throws: StoredFormatError.self) { try firstBlock.withUnsafeBytes { try PackedGaps.decode($0, at: &offset, count: 256, below: 800) } }
        // Below a limit the values reach, or more values than the limit allows: damage.
        offset = 0
        #expect(throws: StoredFormatError.self) { try lists.withUnsafeBytes { try PackedGaps.decode($0, at: &offset, count: list.count, below: 597) } }
        offset = 0
        #expect(throws: StoredFormatError.self) { try lists.withUnsafeBytes { try PackedGaps.decode($0, at: &offset, count: list.count, below: 199) } }
    }

    /// Tag alphabets (the last letter rare) and the kind each is stored in.
    static let tagAlphabets: [(alphabet: [UInt8], kind: UInt8)] = [
        ([1, 2, 3], 2),
        ([1, 2, 3, 2 | Catalog.soleWordTag], 2),
        ([1, 2, 4, 1 | Catalog.soleWordTag], 1),
        ([1, 2, 0x10], 2),
        ([0x10, 0x20, 1], 0),
    ]

    @Test(arguments: Self.tagAlphabets.indices)
    func tagsReadInPlaceAreTheTagsStored(alphabetIndex: Int) throws {
        let (alphabet, kind) = Self.tagAlphabets[alphabetIndex]
        var generator = SeededGenerator(seed: PropertyTestSettings.seed(default: 63))
        for count in [0, 1, 3, 4, 5, 1000] {
            // The last letter of the alphabet rare, as a field's only word is.
            let tags = (0..<count).map { _ in
                Int.random(in: 0..<50, using: &generator) == 0 ? alphabet.last! : alphabet[Int.random(in: 0..<(alphabet.count - 1), using: &generator)]
            }
            let stored = PackedTags.encoded(tags)
            if count == 1000 { #expect(stored[0] == kind) }
            try stored.withUnsafeBytes { raw in
                let packed = try #require(PackedTags(raw, count: count))
                #expect(packed.tags(from: 0, count: count) == tags)
                for _ in 0..<50 {
                    let first = Int.random(in: 0...count, using: &generator), length = Int.random(in: 0...(count - first), using: &generator)
                    #expect(packed.tags(from: first, count: length).map { Array($0) } == Array(tags[first..<(first + length)]))
                }
                #expect(packed.tags(from: count, count: 1) == nil)
                // More tags than the bytes hold (an odd count's last nibble is padding).
                #expect(PackedTags(raw, count: count + 4) == nil)
            }
        }
    }

    @Test func exceptionsOutOfOrderAreReadWithinTheirRange() throws {
        // Kind 2 with 3 exceptions whose places do not ascend (a damaged file).
        var stored: [UInt8] = [2]
        StoredFormat.appendUInt(3, 4, to: &stored)
        for place in [UInt64(7), 2, 0x7FFF_FFFF] { StoredFormat.appendUInt(place, 4, to: &stored) }
        stored += [0x81, 0x82, 0x83]
        stored += [0b1110_0101, 0b0101_0101]
        try stored.withUnsafeBytes { raw in
            let packed = try #require(PackedTags(raw, count: 8))
            let tags = try #require(packed.tags(from: 0, count: 8))
            #expect(tags == [1, 1, 0x82, 3, 1, 1, 1, 0x81])
            #expect(packed.tags(from: 3, count: 5)?.count == 5)
        }
    }

    @Test func groupedStartsAreTheStartsStored() throws {
        var generator = SeededGenerator(seed: PropertyTestSettings.seed(default: 64))
        for count in [0, 1, 7, 8, 9, 16, 1000] {
            for longest in [0, 30, 40, 300, 70_000] {
                // Record lengths up to `longest`: groups that span more than a byte go wide.
                var starts: [UInt32] = [], end: UInt32 = 0
                for _ in 0..<count {
                    starts.append(end)
                    end += UInt32.random(in: 0...UInt32(longest), using: &generator)
                }
                let flat = (starts + [end]).withUnsafeBytes { Array($0) }
                let grouped = RecordStarts.grouped(starts, end: end)
                if longest <= 30, count >= 100 { #expect(grouped.count < flat.count / 2, "\(grouped.count) bytes for \(count) starts") }
                for (bytes, layout) in [(flat, RecordStarts.Layout.flat), (grouped, .grouped)] {
                    let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 4), alignment: 8)
                    defer { aligned.deallocate() }
                    aligned.copyBytes(from: bytes)
                    let raw = UnsafeRawBufferPointer(rebasing: aligned[..<bytes.count])
                    let read = try #require(RecordStarts(raw, count: count, layout: layout))
                    #expect(read.end == Int(end))
                    #expect((0..<count).map { read.start(of: $0) } == starts.map { Int($0) }, "\(layout), \(count) records up to \(longest) bytes")
                    #expect((0..<count).map { read.end(of: $0) } == (0..<count).map { Int($0 + 1 < count ? starts[$0 + 1] : end) })
                    #expect(RecordStarts(raw, count: count + 1, layout: layout) == nil)
                }
            }
        }
    }

    @Test func startsPast2GiBAreStoredWide() throws {
        // The second group spans 70 bytes but starts past 2 GiB, where a base's high bit is the
        // wide flag.
        let far: UInt32 = 1 << 31 + 200
        let starts: [UInt32] = (0..<8).map { UInt32($0) * 10 } + (0..<8).map { far + UInt32($0) * 10 }
        let bytes = RecordStarts.grouped(starts, end: far + 100)
        #expect(StoredFormat.readUInt(bytes, 8, 4) == 1)
        try bytes.withUnsafeBytes { raw in
            let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 8)
            defer { aligned.deallocate() }
            aligned.copyMemory(from: raw)
            let read = try #require(RecordStarts(UnsafeRawBufferPointer(aligned), count: 16, layout: .grouped))
            #expect((0..<16).map { read.start(of: $0) } == starts.map { Int($0) })
            #expect(read.end(of: 15) == Int(far) + 100)
        }
    }

    @Test func aWideGroupTheStartsDoNotHoldIsNoStart() throws {
        // 16 records, the first group wide (100 bytes each) and the second not (10 each); the
        // first group's base then made to name a second wide group.
        let wideGroup: [UInt32] = (0..<8).map { UInt32($0 * 100) }
        let narrowGroup: [UInt32] = (0..<8).map { UInt32(800 + $0 * 10) }
        let starts = wideGroup + narrowGroup
        var bytes = RecordStarts.grouped(starts, end: 880)
        #expect(StoredFormat.readUInt(bytes, 8, 4) == 1)
        bytes[16 + 3] = 0x80
        bytes[16] = 1
        try bytes.withUnsafeBytes { raw in
            let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: raw.count, alignment: 8)
            defer { aligned.deallocate() }
            aligned.copyMemory(from: raw)
            let read = try #require(RecordStarts(UnsafeRawBufferPointer(aligned), count: 16, layout: .grouped))
            #expect(read.start(of: 3) == nil)
            #expect(read.start(of: 9) == 810 && read.end(of: 15) == 880)
        }
    }

    /// An item whose length byte says "read the record" (255) and whose record's field counts
    /// claim more words than its bytes hold (here 2^32) is damaged: it has no length, as it has
    /// no words, and the damage is noted; an honest long record beside it keeps its length.
    @Test func aRecordClaimingMoreWordsThanItsBytesHasNoLength() throws {
        var records: [UInt8] = []
        StoredFormat.appendVarint(UInt64(UInt32.max), to: &records)
        StoredFormat.appendVarint(1, to: &records)
        StoredFormat.appendVarint(3, to: &records)
        let honest = records.count
        StoredFormat.appendVarint(300, to: &records)
        StoredFormat.appendVarint(0, to: &records)
        for _ in 0..<300 { StoredFormat.appendVarint(2, to: &records) }
        let starts = RecordStarts.grouped([0, UInt32(honest)], end: UInt32(records.count))
        let lengths: [UInt8] = [255, 255]
        let damage = StoredDamage()
        try starts.withUnsafeBytes { starts in
            try records.withUnsafeBytes { records in
                try lengths.withUnsafeBytes { lengths in
                    let forward = try #require(StoredForwardIndex(starts: starts, startsLayout: .grouped, records: records, lengths: lengths, slotCount: 2,
                                                                  fieldCount: 2, wordCount: 10, totalWords: 301, damage: damage))
                    #expect(damage.value == nil)
                    #expect(forward.length(of: 1) == 300)
                    #expect(damage.value == nil)
                    #expect(forward.length(of: 0) == 0)
                    #expect(damage.value != nil)
                    let reader = ForwardIndexReader(stored: forward, base: 2, words: [], bounds: [], lengths: [], fieldCount: 2)
                    #expect(reader.length(of: 0) == 0 && reader.length(of: 1) == 300)
                }
            }
        }
    }
}
