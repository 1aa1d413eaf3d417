/// The shared n-gram index: for each trigram, the units (numbered by the owner: a document's
/// spans, a catalog's fields, a tree's files) that hold it.
///
/// A value: a reader keeps a consistent version while an update builds the next (posting lists
/// are copied on write, one at a time).
public struct NGramIndex: Sendable {
    /// The posting list of each trigram present.
    public private(set) var postings: [UInt32: PostingList] = [:]

    /// An empty index.
    public init() {}

    package init(postings: [UInt32: PostingList]) { self.postings = postings }

    /// An index of units given in ascending order, each with its distinct trigram keys: built in
    /// two passes over a flat count per possible key (64 MiB, briefly) — count, then place each
    /// unit in one array — instead of a dictionary lookup or an array append per (trigram, unit).
    package init(units: some Collection<(number: UInt32, keys: [UInt32])>) {
        var starts = [UInt32](repeating: 0, count: 1 << 24 + 1)
        var keys: [UInt32] = []
        var flat: [UInt32] = []
        starts.withUnsafeMutableBufferPointer { starts in
            var total = 0
            for unit in units {
                for key in unit.keys { starts[Int(key) + 1] &+= 1 }
                total += unit.keys.count
            }
            var running: UInt32 = 0
            for key in 0..<(1 << 24) {
                let count = starts[key + 1]
                if count > 0 { keys.append(UInt32(key)) }
                starts[key + 1] = running
                running &+= count
            }
            // starts[key + 1] is now where key's list begins; filling moves it to its end, which
            // is where the next key's list begins.
            flat = [UInt32](unsafeUninitializedCapacity: total) { buffer, count in
                for unit in units {
                    for key in unit.keys {
                        let at = Int(starts[Int(key) + 1])
                        buffer[at] = unit.number
                        starts[Int(key) + 1] = UInt32(at + 1)
                    }
                }
                count = total
            }
        }
        postings.reserveCapacity(keys.count)
        var start = 0
        for key in keys {
            let end = Int(starts[Int(key) + 1])
            postings[key] = PostingList(sortedUnits: Array(flat[start..<end]))
            start = end
        }
    }

    /// Records that `unit` holds `trigram` (not generic: a caller in another module adds key by
    /// key without a generic call each time).
    public mutating func add(_ trigram: Trigram, to unit: UInt32) {
        postings[trigram.key, default: PostingList()].insert(unit)
    }

    /// Records that `unit` holds each of `trigrams` (an array, not any sequence: a generic call
    /// from another module would not be specialized).
    public mutating func add(_ trigrams: [Trigram], to unit: UInt32) {
        for trigram in trigrams { postings[trigram.key, default: PostingList()].insert(unit) }
    }

    /// Records that `unit` no longer holds any of `trigrams`.
    public mutating func remove(_ trigrams: [Trigram], from unit: UInt32) {
        for trigram in trigrams {
            guard var list = postings.removeValue(forKey: trigram.key) else { continue }
            list.remove(unit)
            if !list.isEmpty { postings[trigram.key] = list }
        }
    }

    /// Takes `units` out of every posting list (one pass).
    public mutating func removeUnits(_ units: Set<UInt32>) {
        for key in Array(postings.keys) {
            guard let old = postings[key] else { continue }
            var list = old
            if units.count <= 16 {
                for unit in units where list.contains(unit) { list.remove(unit) }
            } else {
                list = PostingList(sortedUnits: old.units.filter { !units.contains($0) })
            }
            if list.count == old.count { continue }
            postings[key] = list.isEmpty ? nil : list
        }
    }

    /// The units holding `trigram`.
    public func units(holding trigram: Trigram) -> PostingList { postings[trigram.key] ?? PostingList() }

    /// Whether `unit` holds `trigram`.
    public func unit(_ unit: UInt32, holds trigram: Trigram) -> Bool { postings[trigram.key]?.contains(unit) ?? false }

    /// The number of (trigram, unit) pairs.
    public var postingCount: Int { postings.values.reduce(0) { $0 + $1.count } }

    /// The bytes the posting lists take, with a key and a list header per trigram.
    public var byteCount: Int { postings.values.reduce(0) { $0 + $1.byteCount + 24 } }

    /// The units that can hold a match of `query` when each unit is a whole text (a file, a
    /// field): `nil` when every unit can. Exact for AND and OR, since a unit holds all of a
    /// match's literals.
    public func units(satisfying query: LiteralQuery) -> Set<UInt32>? {
        NGramIndex.units(satisfying: query, size: { postings[$0]?.count ?? 0 }, units: { key, within in
            let list = units(holding: Trigram(key: key))
            return within.map { $0.filter(list.contains) } ?? list.units
        }).map(Set.init)
    }

    /// The same, ascending, with the posting lists fetched by `units` (a stored index reads only
    /// these): a key's units, or with `within` only those also in it (ascending). A literal's
    /// lists are taken smallest first, by `size` (any measure that grows with the list), each
    /// narrowing what the ones before left, and no more once nothing is left: an absent word
    /// usually reads one or two short lists, not its common trigrams' long ones.
    package static func units<E: Error>(satisfying query: LiteralQuery, size: (UInt32) -> Int,
                                units: (_ key: UInt32, _ within: [UInt32]?) throws(E) -> [UInt32]) throws(E) -> [UInt32]? {
        switch query {
        case .all:
            return nil
        case .literal(let literal):
            let keys = literal.trigrams.map { ($0.key, size($0.key)) }.sorted { $0.1 < $1.1 }.map { $0.0 }
            guard let first = keys.first else { return nil }
            var result = try units(first, nil)
            for key in keys.dropFirst() where !result.isEmpty { result = try units(key, result) }
            return result
        case .and(let parts):
            var result: [UInt32]?
            for part in parts where result?.isEmpty != true {
                guard let found = try self.units(satisfying: part, size: size, units: units) else { continue }
                result = result.map { intersection($0, found) } ?? found
            }
            return result
        case .or(let parts):
            var result: [UInt32] = []
            for part in parts {
                guard let found = try self.units(satisfying: part, size: size, units: units) else { return nil }
                result = union(result, found)
            }
            return result
        }
    }

    /// The units in both ascending arrays, ascending.
    package static func intersection(_ first: [UInt32], _ second: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        var i = 0, j = 0
        while i < first.count && j < second.count {
            if first[i] < second[j] { i += 1 } else if first[i] > second[j] { j += 1 } else {
                result.append(first[i])
                i += 1
                j += 1
            }
        }
        return result
    }

    /// The units in either ascending array, ascending, once each.
    package static func union(_ first: [UInt32], _ second: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(first.count + second.count)
        var i = 0, j = 0
        while i < first.count || j < second.count {
            if j == second.count || i < first.count && first[i] < second[j] {
                result.append(first[i])
                i += 1
            } else {
                if i < first.count && first[i] == second[j] { i += 1 }
                result.append(second[j])
                j += 1
            }
        }
        return result
    }
}
