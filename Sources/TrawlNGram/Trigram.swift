/// A trigram key: three bytes, ASCII letters folded to lowercase, packed into 24 bits.
///
/// One folded index serves every case mode: a case-sensitive literal's trigrams, folded, are a
/// superset condition of its exact ones (the matcher decides), and a caseless literal's are exact.
/// Bytes above ASCII are kept as they are; a literal whose case folding reaches beyond ASCII
/// (`é`/`É`, `k`/KELVIN SIGN) is already split by ``LiteralQuery`` into parts that are safe.
public struct Trigram: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The distinct trigram keys of `bytes`, in one pass over them.
    public static func distinctKeys(in bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        TrigramCollector.withCollector { $0.distinct(in: bytes) }
    }

    /// The packed, folded bytes.
    public let key: UInt32

    /// The trigram whose key (its three bytes, big-endian) is `key`.
    @inlinable public init(key: UInt32) { self.key = key }

    /// The trigram of three bytes.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        key = UInt32(Trigram.fold(a)) << 16 | UInt32(Trigram.fold(b)) << 8 | UInt32(Trigram.fold(c))
    }

    /// `byte`, lowercased when it is an ASCII capital.
    @inlinable @inline(__always)
    package static func fold(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// The key after `key` when the next byte is `byte` (a rolling window).
    @inlinable @inline(__always)
    package static func roll(_ key: UInt32, _ byte: UInt8) -> UInt32 { (key << 8 | UInt32(fold(byte))) & 0xFF_FFFF }

    /// Trigrams order by key.
    public static func < (lhs: Trigram, rhs: Trigram) -> Bool { lhs.key < rhs.key }

    /// The three bytes, quoted.
    public var description: String {
        String(decoding: [UInt8(key >> 16), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)], as: UTF8.self).debugDescription
    }
}

extension QueryLiteral {
    /// The distinct trigrams every occurrence of the literal contains (none when it is shorter
    /// than three bytes).
    public var trigrams: [Trigram] {
        guard bytes.count >= 3 else { return [] }
        return Array(Set((0...(bytes.count - 3)).map { Trigram(bytes[$0], bytes[$0 + 1], bytes[$0 + 2]) })).sorted()
    }
}
