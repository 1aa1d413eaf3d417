import Synchronization
import TrawlStorage

/// A stored catalog's ids in byte order with their internal numbers, in blocks read when an id
/// is looked up (an update, or ``Catalog/subscript(_:)``): a search reads none, and an update of
/// a few items decodes a few blocks, not a million ids. A catalog's own dictionary holds only the
/// ids changed since it was read.
///
/// ```
/// ids     varint count, varint block count; per block: string its first id, varint its
///         stored length; then the blocks back to back, each deflated
///         (CatalogBlock.appendDeflated): per id, varint bytes shared with the id before
///         (0 for the first), varint length of the rest, the rest, varint internal number
/// ```
struct StoredIDs: Sendable {
    private let box: Box

    /// How many ids a block holds.
    static let idsPerBlock = 256

    private final class Box: Sendable {
        let stored: [UInt8]
        let slotCount: Int
        let state = Mutex<State>(State())

        init(stored: [UInt8], slotCount: Int) {
            self.stored = stored
            self.slotCount = slotCount
        }
    }

    private struct State: Sendable {
        /// The blocks' first ids and where each block lies in `stored`; nil until read, empty
        /// when it does not read.
        var directory: [(first: [UInt8], range: Range<Int>)]?
        /// Decoded blocks.
        var blocks: [Int: Block] = [:]
    }

    /// A decoded block: its ids back to back in byte order, where each ends, their numbers.
    private struct Block: Sendable {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var numbers: [UInt32] = []

        func number(of id: [UInt8]) -> UInt32? {
            var start = 0
            for (index, end) in ends.enumerated() {
                if end - start == id.count, bytes[start..<end].elementsEqual(id) { return numbers[index] }
                start = end
            }
            return nil
        }
    }

    /// The stored form of the ids of the live internal numbers of `catalog`.
    static func encoded(of catalog: Catalog) -> [UInt8] {
        var entries: [(id: [UInt8], number: UInt32)] = []
        entries.reserveCapacity(catalog.count)
        for number in catalog.isLive.indices where catalog.isLive[number] { entries.append((Array(catalog.item(number)!.id.utf8), UInt32(number))) }
        entries.sort { $0.id.lexicographicallyPrecedes($1.id) }
        var directory: [UInt8] = [], blocks: [UInt8] = []
        let blockCount = (entries.count + idsPerBlock - 1) / idsPerBlock
        StoredFormat.appendVarint(UInt64(entries.count), to: &directory)
        StoredFormat.appendVarint(UInt64(blockCount), to: &directory)
        for block in 0..<blockCount {
            let slice = entries[(block * idsPerBlock)..<min(entries.count, (block + 1) * idsPerBlock)]
            var raw: [UInt8] = []
            var previous: [UInt8] = []
            for entry in slice {
                let shared = zip(previous, entry.id).prefix { $0 == $1 }.count
                StoredFormat.appendVarint(UInt64(shared), to: &raw)
                StoredFormat.appendVarint(UInt64(entry.id.count - shared), to: &raw)
                raw += entry.id[shared...]
                StoredFormat.appendVarint(UInt64(entry.number), to: &raw)
                previous = entry.id
            }
            let start = blocks.count
            _ = CatalogBlock.appendDeflated(raw, to: &blocks)
            CatalogBlock.appendBytes(slice.first!.id, to: &directory)
            StoredFormat.appendVarint(UInt64(blocks.count - start), to: &directory)
        }
        return directory + blocks
    }

    /// The ids `stored` holds, for a catalog of `slotCount` internal numbers (read when first
    /// looked up).
    init(stored: [UInt8], slotCount: Int) { box = Box(stored: stored, slotCount: slotCount) }

    /// The internal number stored for `id`, if any. Ids that do not decode (a damaged or
    /// hostile file) are not found.
    func number(of id: String) -> UInt32? {
        let id = Array(id.utf8)
        return box.state.withLock { state in
            if state.directory == nil { state.directory = (try? Self.directory(box.stored)) ?? [] }
            let directory = state.directory!
            // The last block whose first id is not after `id`.
            var low = 0, high = directory.count
            while low < high {
                let middle = (low + high) / 2
                if id.lexicographicallyPrecedes(directory[middle].first) { high = middle } else { low = middle + 1 }
            }
            guard low > 0 else { return nil }
            let block = low - 1
            if state.blocks[block] == nil {
                state.blocks[block] = (try? Self.decode(box.stored, range: directory[block].range, slotCount: box.slotCount)) ?? Block()
            }
            return state.blocks[block]!.number(of: id)
        }
    }

    /// The blocks' first ids and where each lies.
    private static func directory(_ stored: [UInt8]) throws(StoredFormatError) -> [(first: [UInt8], range: Range<Int>)] {
        var reader = StoredFormat.Reader(bytes: stored, end: stored.count)
        _ = try reader.varint()
        var entries: [(first: [UInt8], length: Int)] = []
        for _ in 0..<(try reader.count()) {
            let first = Array(try reader.bytes(try reader.count()))
            entries.append((first, try reader.count()))
        }
        var start = reader.position
        var directory: [(first: [UInt8], range: Range<Int>)] = []
        for entry in entries {
            guard entry.length <= stored.count - start else { throw .corrupt("ids") }
            directory.append((entry.first, start..<(start + entry.length)))
            start += entry.length
        }
        guard start == stored.count else { throw .corrupt("ids") }
        return directory
    }

    /// The ids of the block at `range` of `stored`, each number below `slotCount`.
    private static func decode(_ stored: [UInt8], range: Range<Int>, slotCount: Int) throws(StoredFormatError) -> Block {
        var outer = StoredFormat.Reader(bytes: stored, position: range.lowerBound, end: range.upperBound)
        let raw = try CatalogBlock.inflated(&outer)
        var reader = StoredFormat.Reader(bytes: raw, end: raw.count)
        var block = Block()
        var previous = 0..<0
        while reader.position < raw.count {
            let shared = try reader.varint()
            guard shared <= UInt64(previous.count) else { throw .corrupt("ids") }
            let start = block.bytes.count
            // Byte by byte: a slice of the array would share its buffer, and each append copy it.
            for offset in 0..<Int(shared) { block.bytes.append(block.bytes[previous.lowerBound + offset]) }
            block.bytes += try reader.bytes(try reader.count())
            let number = try reader.varint()
            guard number < UInt64(slotCount) else { throw .corrupt("ids") }
            previous = start..<block.bytes.count
            block.ends.append(block.bytes.count)
            block.numbers.append(UInt32(number))
        }
        return block
    }
}
