/// The column of an attribute no item has two values of: by internal number, the item's value
/// number plus one (0: none). In memory an array; in a stored catalog (``CatalogFormat`` version
/// 5) read where it lies for the items it was opened with: by item, the value's place among the
/// attribute's values plus one, in a byte, two or four as the attribute's value count needs (most
/// attributes, a byte), then an array for the items added since.
struct ValueColumn: @unchecked Sendable { // a stored column reads memory its owner keeps immutable
    /// The stored column and the attribute's value numbers by place.
    private let stored: (base: UnsafeRawPointer, width: Int, values: [UInt32])?
    /// The items below it are read from `stored` (none of them has a value when there is none).
    private let storedCount: Int
    /// The values of the items from `storedCount` on.
    private let tail: [UInt32]

    init(_ values: [UInt32]) {
        stored = nil
        storedCount = 0
        tail = values
    }

    /// The stored column of `count` items at `base`, `width` bytes each (1, 2 or 4), of an
    /// attribute whose value numbers are `values` (places past them read as none: a stored
    /// column may come from anywhere).
    init(stored base: UnsafeRawPointer, width: Int, count: Int, values: [UInt32]) {
        precondition([1, 2, 4].contains(width), "a column of 1, 2 or 4 bytes an item")
        stored = (base, width, values)
        storedCount = count
        tail = []
    }

    private init(stored: (base: UnsafeRawPointer, width: Int, values: [UInt32])?, storedCount: Int, tail: [UInt32]) {
        self.stored = stored
        self.storedCount = storedCount
        self.tail = tail
    }

    /// `stored` (none: no value) for the first `count` items, then `tail`.
    init(_ stored: ValueColumn?, count: Int, then tail: [UInt32]) {
        self.init(stored: stored?.stored, storedCount: count, tail: tail)
    }

    /// The width a stored column of an attribute of `valueCount` values takes per item.
    static func storedWidth(valueCount: Int) -> Int { valueCount < 255 ? 1 : valueCount < 65535 ? 2 : 4 }

    /// Item `item`'s value number plus one, or 0 for none.
    subscript(item: Int) -> UInt32 {
        guard item < storedCount else { return tail[item - storedCount] }
        guard let (base, width, values) = stored, item >= 0 else { return 0 }
        let place: Int = switch width {
        case 1: Int(base.load(fromByteOffset: item, as: UInt8.self))
        case 2: Int(UInt16(littleEndian: base.load(fromByteOffset: 2 * item, as: UInt16.self)))
        default: Int(UInt32(littleEndian: base.load(fromByteOffset: 4 * item, as: UInt32.self)))
        }
        return place != 0 && place <= values.count ? values[place - 1] + 1 : 0
    }

    /// Adds one to `counts[value]` for the value of each of `items` that has one.
    func count(_ items: [UInt32], into counts: UnsafeMutableBufferPointer<Int>) {
        if storedCount == 0 {
            tail.withUnsafeBufferPointer { column in
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

    /// The values of the first `count` items, as an array (for a catalog about to be updated).
    func values(count: Int) -> [UInt32] {
        if storedCount == 0, tail.count == count { return tail }
        var values = [UInt32]()
        values.reserveCapacity(count + count / 8)
        for item in 0..<count { values.append(self[item]) }
        return values
    }
}
