import Synchronization
import TrawlStorage

/// A stored catalog's ids in byte order with their internal numbers, read when an id is first
/// looked up (an update, or ``Catalog/subscript(_:)``): a search reads none, so opening a
/// catalog builds no dictionary of a million ids, and a catalog's own dictionary holds only the
/// ids changed since. An id is found by binary search.
///
/// ```
/// ids    deflated (CatalogBlock.appendDeflated): varint count, then per id in byte order:
///        varint bytes shared with the id before, varint length of the rest, the rest,
///        varint internal number
/// ```
struct StoredIDs: Sendable {
    private let box: Box

    private final class Box: Sendable {
        let stored: [UInt8]
        let slotCount: Int
        let decoded = Mutex<Decoded?>(nil)

        init(stored: [UInt8], slotCount: Int) {
            self.stored = stored
            self.slotCount = slotCount
        }
    }

    /// The ids back to back in byte order, where each ends, and their numbers.
    private struct Decoded: Sendable {
        var bytes: [UInt8] = []
        var ends: [UInt32] = []
        var numbers: [UInt32] = []
    }

    /// The stored form of the ids of the live internal numbers of `catalog`.
    static func encoded(of catalog: Catalog) -> [UInt8] {
        var entries: [(id: [UInt8], number: UInt32)] = []
        entries.reserveCapacity(catalog.count)
        for number in catalog.isLive.indices where catalog.isLive[number] { entries.append((Array(catalog.item(number)!.id.utf8), UInt32(number))) }
        entries.sort { $0.id.lexicographicallyPrecedes($1.id) }
        var raw: [UInt8] = []
        StoredFormat.appendVarint(UInt64(entries.count), to: &raw)
        var previous: [UInt8] = []
        for entry in entries {
            let shared = zip(previous, entry.id).prefix { $0 == $1 }.count
            StoredFormat.appendVarint(UInt64(shared), to: &raw)
            StoredFormat.appendVarint(UInt64(entry.id.count - shared), to: &raw)
            raw += entry.id[shared...]
            StoredFormat.appendVarint(UInt64(entry.number), to: &raw)
            previous = entry.id
        }
        var stored: [UInt8] = []
        _ = CatalogBlock.appendDeflated(raw, to: &stored)
        return stored
    }

    /// The ids `stored` holds, for a catalog of `slotCount` internal numbers (decoded when first
    /// looked up).
    init(stored: [UInt8], slotCount: Int) { box = Box(stored: stored, slotCount: slotCount) }

    /// The internal number stored for `id`, if any. Ids that do not decode (a damaged or
    /// hostile file) are not found.
    func number(of id: String) -> UInt32? {
        box.decoded.withLock { decoded in
            if decoded == nil { decoded = (try? Self.decode(box.stored, slotCount: box.slotCount)) ?? Decoded() }
            var id = id
            return id.withUTF8 { id in decoded!.bytes.withUnsafeBufferPointer { bytes in
                let ends = decoded!.ends
                var low = 0, high = ends.count
                while low < high {
                    let middle = (low + high) / 2
                    let start = middle == 0 ? 0 : Int(ends[middle - 1])
                    let stored = UnsafeBufferPointer(rebasing: bytes[start..<Int(ends[middle])])
                    if stored.elementsEqual(id) { return decoded!.numbers[middle] }
                    if stored.lexicographicallyPrecedes(id) { low = middle + 1 } else { high = middle }
                }
                return nil
            } }
        }
    }

    /// The ids `stored` holds, each number below `slotCount`.
    private static func decode(_ stored: [UInt8], slotCount: Int) throws(StoredFormatError) -> Decoded {
        var outer = StoredFormat.Reader(bytes: stored, end: stored.count)
        let raw = try CatalogBlock.inflated(&outer)
        var reader = StoredFormat.Reader(bytes: raw, end: raw.count)
        var decoded = Decoded()
        var previous = 0..<0
        for _ in 0..<(try reader.count()) {
            let shared = try reader.varint()
            guard shared <= UInt64(previous.count) else { throw .corrupt("ids") }
            let start = decoded.bytes.count
            // Byte by byte: a slice of the array would share its buffer, and each append copy it.
            for offset in 0..<Int(shared) { decoded.bytes.append(decoded.bytes[previous.lowerBound + offset]) }
            decoded.bytes += try reader.bytes(try reader.count())
            guard decoded.bytes.count < Int(UInt32.max) else { throw .corrupt("ids") }
            previous = start..<decoded.bytes.count
            decoded.ends.append(UInt32(decoded.bytes.count))
            let number = try reader.varint()
            guard number < UInt64(slotCount) else { throw .corrupt("ids") }
            decoded.numbers.append(UInt32(number))
        }
        return decoded
    }
}
