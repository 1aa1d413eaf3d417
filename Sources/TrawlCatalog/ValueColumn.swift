/// The column of an attribute no item has two values of: by internal number, the item's value
/// number plus one (0: none). In memory an array; in a stored catalog (``CatalogFormat`` version
/// 5) read where it lies, a byte, two or four per item as the value count needs.
struct ValueColumn: @unchecked Sendable { // a stored column reads memory its owner keeps immutable
    private enum Storage {
        case memory([UInt32])
        case stored(UnsafeRawPointer, width: Int, count: Int)
    }

    private let storage: Storage
    /// Values past this are read as none (a stored column may come from anywhere).
    private let valueCount: UInt32

    init(_ values: [UInt32]) {
        storage = .memory(values)
        valueCount = .max
    }

    /// The stored column of `count` items at `base`, `width` bytes each (1, 2 or 4), of values
    /// below `valueCount`.
    init(stored base: UnsafeRawPointer, width: Int, count: Int, valueCount: Int) {
        precondition([1, 2, 4].contains(width), "a column of 1, 2 or 4 bytes an item")
        storage = .stored(base, width: width, count: count)
        self.valueCount = UInt32(clamping: valueCount)
    }

    /// Item `item`'s value number plus one, or 0 for none.
    subscript(item: Int) -> UInt32 {
        switch storage {
        case let .memory(values): return values[item]
        case let .stored(base, width, count):
            guard item >= 0, item < count else { return 0 }
            let value: UInt32 = switch width {
            case 1: UInt32(base.load(fromByteOffset: item, as: UInt8.self))
            case 2: UInt32(UInt16(littleEndian: base.load(fromByteOffset: 2 * item, as: UInt16.self)))
            default: UInt32(littleEndian: base.load(fromByteOffset: 4 * item, as: UInt32.self))
            }
            return value <= valueCount ? value : 0
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
