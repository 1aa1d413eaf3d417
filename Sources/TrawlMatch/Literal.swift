/// A literal string as a prefilter sees it: each unit is a byte, or an ASCII letter that matches
/// in either case.
struct PrefilterLiteral: Hashable, Sendable {
    /// A unit below 0x100 is an exact byte; `caselessFlag | lowercase letter` matches the letter in
    /// either ASCII case.
    var units: [UInt16]

    static let caselessFlag: UInt16 = 0x100

    init(units: [UInt16]) { self.units = units }

    init(bytes: some Sequence<UInt8>) { units = bytes.map { UInt16($0) } }

    var count: Int { units.count }

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
        units.reduce(0) { total, unit in
            let rarity = PrefilterLiteral.bytes(of: unit).map { Int(byteRarity[Int($0)]) }.min()!
            return total + rarity + 8
        }
    }

    /// The index of the unit to scan for: the rarest one.
    var anchorIndex: Int {
        var best = 0, bestRarity = -1
        for (index, unit) in units.enumerated() {
            let bytes = PrefilterLiteral.bytes(of: unit)
            // A caseless letter is scanned as two bytes, so it counts as commoner.
            let rarity = bytes.map { Int(byteRarity[Int($0)]) }.min()! - (bytes.count - 1) * 24
            if rarity > bestRarity { best = index; bestRarity = rarity }
        }
        return best
    }
}

/// Literals of which every match contains at least one.
struct PrefilterSet: Hashable, Sendable {
    var literals: [PrefilterLiteral]

    /// How selective the set is: as good as its least selective member.
    var score: Int { literals.map(\.score).min() ?? 0 }
}
