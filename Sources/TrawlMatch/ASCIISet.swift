/// A set of ASCII bytes as two 64-bit masks: a membership test a scan can afford for every byte.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init() {}

    /// The ASCII characters the class `classPattern` (`\w`, `[a-z]`) matches, as PCRE2 compiles it
    /// (Unicode properties and case folding included); nil when it does not compile.
    init?(characterClass classPattern: String, caseless: Bool) {
        guard let member = try? CompiledRegex(pattern: classPattern, caseless: caseless, anchored: true) else { return nil }
        let state = RegexMatchState(regex: member, limits: RegexLimits())
        for character in 0..<UInt8(128) {
            let found = [character].withUnsafeBufferPointer { subject in
                if case .match = try? state.match(subject, from: 0, options: 0, subjectOffset: 0) { return true }
                return false
            }
            if found { insert(character) }
        }
    }

    mutating func insert(_ byte: UInt8) {
        precondition(byte < 0x80, "not ASCII")
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    /// Whether `byte` is in the set (never, beyond ASCII).
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low >> UInt64(byte) & 1 != 0 : byte < 128 && high >> UInt64(byte - 64) & 1 != 0
    }

    /// The bytes in either set.
    func union(_ other: ASCIISet) -> ASCIISet {
        var both = self
        both.low |= other.low
        both.high |= other.high
        return both
    }

    /// Whether no byte is in both sets.
    func isDisjoint(with other: ASCIISet) -> Bool { low & other.low == 0 && high & other.high == 0 }
}
