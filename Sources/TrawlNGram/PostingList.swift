/// The units holding one trigram: a sorted array of unit numbers while few hold it, a bitmap once
/// many do (the memory of either is then about the same, and the bitmap answers in O(1)).
///
/// Written here rather than taken from a library: no package in reach has a compressed integer
/// set (Roaring and the like) for Swift on Linux.
public struct PostingList: Sendable, Hashable {
    package enum Storage: Hashable {
        case sparse([UInt32])
        case dense([UInt64], count: Int)
    }

    package var storage: Storage = .sparse([])

    package init() {}

    /// The list of `units` (ascending, distinct).
    package init(sortedUnits units: [UInt32]) {
        if units.count > PostingList.denseThreshold, let last = units.last, Int(last >> 6) + 1 <= units.count * 2 {
            var words = [UInt64](repeating: 0, count: Int(last >> 6) + 1)
            for unit in units { words[Int(unit >> 6)] |= 1 << UInt64(unit & 63) }
            storage = .dense(words, count: units.count)
        } else {
            storage = .sparse(units)
        }
    }

    /// A list above this many units turns into a bitmap (when the bitmap is no larger).
    package static let denseThreshold = 64

    /// How many units hold the trigram.
    public var count: Int {
        switch storage {
        case .sparse(let units): units.count
        case .dense(_, let count): count
        }
    }

    /// Whether no unit is in the list.
    public var isEmpty: Bool { count == 0 }

    /// Whether `unit` holds the trigram.
    public func contains(_ unit: UInt32) -> Bool {
        switch storage {
        case .sparse(let units):
            return PostingList.insertionPoint(of: unit, in: units).found
        case .dense(let words, _):
            let word = Int(unit >> 6)
            return word < words.count && words[word] & (1 << UInt64(unit & 63)) != 0
        }
    }

    /// Adds `unit`; returns whether it was new.
    @discardableResult
    public mutating func insert(_ unit: UInt32) -> Bool {
        switch storage {
        case .sparse(var units):
            let (index, found) = PostingList.insertionPoint(of: unit, in: units)
            if found { return false }
            storage = .sparse([])
            units.insert(unit, at: index)
            self = PostingList(sortedUnits: units)
            return true
        case .dense(var words, let count):
            let word = Int(unit >> 6), bit: UInt64 = 1 << UInt64(unit & 63)
            if word < words.count && words[word] & bit != 0 { return false }
            storage = .sparse([])
            if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
            words[word] |= bit
            storage = .dense(words, count: count + 1)
            return true
        }
    }

    /// Removes `unit`; returns whether it was there.
    @discardableResult
    public mutating func remove(_ unit: UInt32) -> Bool {
        switch storage {
        case .sparse(var units):
            let (index, found) = PostingList.insertionPoint(of: unit, in: units)
            guard found else { return false }
            storage = .sparse([])
            units.remove(at: index)
            storage = .sparse(units)
            return true
        case .dense(var words, let count):
            let word = Int(unit >> 6), bit: UInt64 = 1 << UInt64(unit & 63)
            guard word < words.count && words[word] & bit != 0 else { return false }
            storage = .sparse([])
            words[word] &= ~bit
            if count - 1 < PostingList.denseThreshold / 2 {
                storage = .sparse(PostingList.units(in: words))
            } else {
                storage = .dense(words, count: count - 1)
            }
            return true
        }
    }

    /// The units, ascending.
    public var units: [UInt32] {
        switch storage {
        case .sparse(let units): units
        case .dense(let words, _): PostingList.units(in: words)
        }
    }

    /// The bytes the list takes (payload only).
    public var byteCount: Int {
        switch storage {
        case .sparse(let units): units.count * 4
        case .dense(let words, _): words.count * 8
        }
    }

    package static func units(in words: [UInt64]) -> [UInt32] {
        var result: [UInt32] = []
        for (index, word) in words.enumerated() {
            var bits = word
            while bits != 0 {
                result.append(UInt32(index << 6 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return result
    }

    package static func insertionPoint(of unit: UInt32, in units: [UInt32]) -> (index: Int, found: Bool) {
        var low = 0, high = units.count
        while low < high {
            let mid = (low + high) / 2
            if units[mid] < unit { low = mid + 1 } else { high = mid }
        }
        return (low, low < units.count && units[low] == unit)
    }
}
