import TrawlNGram
/// A literal string as a prefilter sees it: each unit is a byte, or an ASCII letter that matches
/// in either case.
struct PrefilterLiteral: Hashable, Sendable {
    /// A unit below 0x100 is an exact byte; `caselessFlag | lowercase letter` matches the letter in
    /// either ASCII case.
    var units: [UInt16] { didSet { rank() } }
    /// The index of the unit to scan for: the rarest one.
    private(set) var anchorIndex = 0
    /// The two rarest units (in order of position), for the packed-pair scan; -1 when shorter.
    private(set) var pairFirst = -1
    private(set) var pairSecond = -1

    /// The same flag as `QueryLiteral.caselessFlag` (a literal here: read in scanning loops, a
    /// constant of another module would be a call).
    static let caselessFlag: UInt16 = 0x100

    init(units: [UInt16]) {
        self.units = units
        rank()
    }

    init(bytes: some Sequence<UInt8>) { self.init(units: bytes.map { UInt16($0) }) }

    /// Ranks the units by rarity once, when the literal is made (not per search).
    private mutating func rank() {
        // Each unit's rarity computed once, without allocating: this runs for every matcher made
        // (each keystroke of a find field, each start of a search).
        let rarities = units.map(PrefilterLiteral.rarity)
        var best = 0, bestRarity = Int.min
        for index in units.indices {
            // A caseless letter is scanned as two bytes, so it counts as commoner.
            let value = rarities[index] - (units[index] & PrefilterLiteral.caselessFlag != 0 ? 24 : 0)
            if value > bestRarity { best = index; bestRarity = value }
        }
        anchorIndex = best
        if units.count >= 2 {
            // The two rarest, the earlier first among equals.
            var first = 0, second = -1
            for index in units.indices.dropFirst() {
                if rarities[index] > rarities[first] {
                    second = first
                    first = index
                } else if second < 0 || rarities[index] > rarities[second] {
                    second = index
                }
            }
            pairFirst = min(first, second)
            pairSecond = max(first, second)
        } else {
            pairFirst = -1
            pairSecond = -1
        }
    }

    /// How rare a unit's bytes are: the commoner of a caseless letter's two.
    private static func rarity(_ unit: UInt16) -> Int {
        guard unit & caselessFlag != 0 else { return Int(byteRarity[Int(unit)]) }
        let lower = Int(unit & 0xFF)
        return Int(Swift.min(byteRarity[lower], byteRarity[lower - 0x20]))
    }

    var count: Int { units.count }

    /// Whether two occurrences can overlap: some proper prefix of the literal may also be a
    /// suffix of it (as in `abab` or `aa`). Units that may match the same byte count as equal.
    var canOverlapItself: Bool {
        func mayEqual(_ one: UInt16, _ other: UInt16) -> Bool {
            switch (one & PrefilterLiteral.caselessFlag != 0, other & PrefilterLiteral.caselessFlag != 0) {
            case (false, false), (true, true): one == other
            case (true, false): PrefilterLiteral.unit(one, matches: UInt8(other))
            case (false, true): PrefilterLiteral.unit(other, matches: UInt8(one))
            }
        }
        return (1..<max(units.count, 1)).contains { length in
            (0..<length).allSatisfy { mayEqual(units[$0], units[units.count - length + $0]) }
        }
    }

    /// The bytes a unit may be.
    static func bytes(of unit: UInt16) -> [UInt8] {
        if unit & caselessFlag != 0 {
            let lower = UInt8(unit & 0xFF)
            return [lower, lower - 0x20]
        }
        return [UInt8(unit)]
    }

    @inline(__always)
    static func unit(_ unit: UInt16, matches byte: UInt8) -> Bool {
        unit & caselessFlag != 0 ? (byte | 0x20) == UInt8(unit & 0xFF) : byte == UInt8(unit)
    }

    /// How selective the literal is: higher is rarer. Sums the rarity of each unit, so longer
    /// literals of rare bytes score highest.
    var score: Int {
        units.reduce(0) { $0 + PrefilterLiteral.rarity($1) + 8 }
    }

}

/// Literals of which every match contains at least one.
struct PrefilterSet: Hashable, Sendable {
    var literals: [PrefilterLiteral]

    /// How selective the set is: as good as its least selective member.
    var score: Int { literals.map { $0.score }.min() ?? 0 }
}
