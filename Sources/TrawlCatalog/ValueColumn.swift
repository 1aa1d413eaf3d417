/// The column of an attribute no item has two values of: by internal number, the item's value
/// number plus one (0: none). In memory an array; in a stored catalog (``CatalogFormat`` version
/// 5) read where it lies: by item, the value's place among the attribute's values plus one, in a
/// byte, two or four as the attribute's value count needs (most attributes, a byte).
struct ValueColumn: @unchecked Sendable { // a stored column reads memory its owner keeps immutable
    private enum Storage {
        case memory([UInt32])
        /// The column, and the attribute's value numbers by place.
        case stored(UnsafeRawPointer, width: Int, count: Int, values: [UInt32])
    }

    private let storage: Storage

    init(_ values: [UInt32]) { storage = .memory(values) }

    /// The stored column of `count` items at `base`, `width` bytes each (1, 2 or 4), of an
    /// attribute whose value numbers are `values` (places past them read as none: a stored
    /// column may come from anywhere).
    init(stored base: UnsafeRawPointer, width: Int, count: Int, values: [UInt32]) {
        precondition([1, 2, 4].contains(width), "a column of 1, 2 or 4 bytes an item")
        storage = .stored(base, width: width, count: count, values: values)
    }

    /// The width a stored column of an attribute of `valueCount` values takes per item.
    static func storedWidth(valueCount: Int) -> Int { valueCount < 255 ? 1 : valueCount < 65535 ? 2 : 4 }

    /// Item `item`'s value number plus one, or 0 for none.
    subscript(item: Int) -> UInt32 {
        switch storage {
        case let .memory(values): return values[item]
        case let .stored(base, width, count, values):
            guard item >= 0, item < count else { return 0 }
            let place: Int = switch width {
            case 1: Int(base.load(fromByteOffset: item, as: UInt8.self))
            case 2: Int(UInt16(littleEndian: base.load(fromByteOffset: 2 * item, as: UInt16.self)))
            default: Int(UInt32(littleEndian: base.load(fromByteOffset: 4 * item, as: UInt32.self)))
            }
            return place != 0 && place <= values.count ? values[place - 1] + 1 : 0
        }
    }

    /// Adds one to `counts[value]` for the value of each of `items` that has one.
    func count(_ items: [UInt32], into counts: UnsafeMutableBufferPointer<Int>) {
        if case let .memory(values) = storage {
            values.withUnsafeBufferPointer { column in
                for item in items {
                    let value = Int(column[Int(item)])
                    if value != 0 { counts[value - 1] += 1 }
                }
            }
            return
        }
        for item in items {
            let value = Int(self[Int(item)])
            if value != 0 { counts[value - 1] += 1 }
        }
    }

    /// The values by item, as an array (for a catalog about to be updated).
    func values(count: Int) -> [UInt32] {
        if case let .memory(values) = storage { return values }
        var values = [UInt32]()
        values.reserveCapacity(count + count / 8)
        for item in 0..<count { values.append(self[item]) }
        return values
    }
}
