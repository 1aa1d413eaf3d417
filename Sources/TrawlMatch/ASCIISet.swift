/// A set of ASCII bytes as two 64-bit masks: a membership test a scan can afford for every byte.
struct ASCIISet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init() {}

    mutating func insert(_ byte: UInt8) {
        precondition(byte < 0x80, "not ASCII")
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    /// Whether `byte` is in the set (never, beyond ASCII).
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low >> UInt64(byte) & 1 != 0 : byte < 128 && high >> UInt64(byte - 64) & 1 != 0
    }
}
