import TrawlStorage

/// A stored catalog's ids in byte order with their internal numbers: an id is found by binary
/// search, so opening a catalog builds no dictionary of a million ids (a catalog's own
/// dictionary then holds only the ids changed since).
struct StoredIDs: Sendable {
    private let bytes: [UInt8]
    /// Where each id ends in `bytes`.
    private let ends: [UInt32]
    private let numbers: [UInt32]

    /// The ids of the live internal numbers of `items` (``Catalog/item(_:)``), sorted.
    init(of catalog: Catalog) {
        var entries: [(id: [UInt8], number: UInt32)] = []
        entries.reserveCapacity(catalog.count)
        for number in catalog.isLive.indices where catalog.isLive[number] { entries.append((Array(catalog.item(number)!.id.utf8), UInt32(number))) }
        entries.sort { $0.id.lexicographicallyPrecedes($1.id) }
        var bytes: [UInt8] = [], ends: [UInt32] = []
        for entry in entries {
            bytes += entry.id
            ends.append(UInt32(bytes.count))
        }
        self.bytes = bytes
        self.ends = ends
        numbers = entries.map(\.number)
    }

    /// How many sections ``appendSections(to:)`` writes.
    static let sectionCount = 3

    func appendSections(to writer: inout StoredSections.Writer) {
        writer.append(bytes)
        writer.append(values: ends)
        writer.append(values: numbers)
    }

    /// The ids sections `first...` of `reader` hold, for a catalog of `slotCount` internal
    /// numbers: each id within the bytes, each number below `slotCount` (ids out of order are
    /// not found, which loses nothing a search reads).
    init(sections reader: StoredSections.Reader, first: Int, slotCount: Int) throws(StoredFormatError) {
        bytes = try reader.array(first)
        ends = try reader.values(first + 1, as: UInt32.self)
        numbers = try reader.values(first + 2, as: UInt32.self, count: ends.count)
        var previous: UInt32 = 0
        for end in ends {
            guard end >= previous, Int(end) <= bytes.count else { throw .corrupt("ids") }
            previous = end
        }
        guard numbers.allSatisfy({ Int($0) < slotCount }) else { throw .corrupt("ids") }
    }

    /// The internal number stored for `id`, if any.
    func number(of id: String) -> UInt32? {
        var id = id
        return id.withUTF8 { id in
            bytes.withUnsafeBufferPointer { bytes in
                var low = 0, high = ends.count
                while low < high {
                    let middle = (low + high) / 2
                    let start = middle == 0 ? 0 : Int(ends[middle - 1])
                    let stored = UnsafeBufferPointer(rebasing: bytes[start..<Int(ends[middle])])
                    if stored.elementsEqual(id) { return numbers[middle] }
                    if stored.lexicographicallyPrecedes(id) { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }
}
