#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Word numbers by their bytes: an open-addressing hash table over the words a ``Vocabulary``
/// keeps back to back.
///
/// Hand-written because a `Dictionary` needs a key value per lookup: a `String` made from the
/// word's bytes and hashed with SipHash, which cost a build a fifth of its time (a catalog looks
/// up every word of every item). Here a lookup hashes the bytes in place, and a slot holds the
/// word's first eight bytes beside its hash and length: most words are that short, so a lookup
/// reads one slot and not the stored word.
struct WordTable: Sendable {
    /// A word's hash and first bytes, computed once per lookup.
    struct Key: Sendable {
        /// Its high 24 bits are kept in the slot beside the length.
        var hash: UInt32
        /// The first eight bytes, little-endian, zero-padded.
        var head: UInt64
        var length: Int
    }

    /// Two values per slot: the tag (high 32 bits) with the word's number plus one (low; 0: an
    /// empty slot), then the word's head.
    private var slots = [UInt64](repeating: 0, count: 32)
    private var count = 0
    /// The bits of a hash kept and compared (tests keep none, so that words collide).
    private let hashMask: UInt64

    /// An empty table; `hashBits` below 24 only for tests.
    init(hashBits: Int = 24) { hashMask = (1 << UInt64(hashBits)) - 1 }

    /// What a slot holding the word of `key` keeps in its high 32 bits: 24 bits of the hash, the
    /// length.
    private func tag(_ key: Key) -> UInt64 { (UInt64(key.hash >> 8) & hashMask) << 8 | UInt64(min(key.length, 255)) }

    private var slotCount: Int { slots.count / 2 }

    /// The bytes its slots take.
    var byteCount: Int { 8 * slots.count }

    /// The number of the word `key` was made from (`bytes`), given the words so far as `word(n)`;
    /// nil when new.
    func number(of bytes: UnsafeBufferPointer<UInt8>, key: Key, word: (UInt32) -> UnsafeBufferPointer<UInt8>) -> UInt32? {
        let mask = slotCount - 1
        let tag = tag(key)
        var index = Self.firstSlot(tag: tag, head: key.head) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let entry = slots[2 * index]
                if entry == 0 { return nil }
                if entry >> 32 == tag, slots[2 * index + 1] == key.head {
                    let number = UInt32(truncatingIfNeeded: entry) - 1
                    if key.length <= 8 { return number }
                    let stored = word(number)
                    if stored.count == bytes.count, memcmp(stored.baseAddress! + 8, bytes.baseAddress! + 8, bytes.count - 8) == 0 { return number }
                }
                index = (index + 1) & mask
            }
        }
    }

    /// Records word `number`, whose key is `key` (not already there).
    mutating func insert(_ number: UInt32, key: Key) {
        if (count + 1) * 2 > slotCount { grow() }
        place(tag(key) << 32 | (UInt64(number) + 1), head: key.head)
        count += 1
    }

    private mutating func place(_ entry: UInt64, head: UInt64) {
        let mask = slotCount - 1
        var index = Self.firstSlot(tag: entry >> 32, head: head) & mask
        while slots[2 * index] != 0 { index = (index + 1) & mask }
        slots[2 * index] = entry
        slots[2 * index + 1] = head
    }

    /// The slot a word is tried at first (the low bits, as many as the table needs), from what
    /// its slot keeps: the table grows without reading the words.
    @inline(__always)
    private static func firstSlot(tag: UInt64, head: UInt64) -> Int { Int(truncatingIfNeeded: mix(tag ^ head)) }

    /// Doubles the table.
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for index in stride(from: 0, to: old.count, by: 2) where old[index] != 0 { place(old[index], head: old[index + 1]) }
    }

    /// The key of a word's bytes: a multiply-xorshift mix, eight bytes at a time.
    static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var head: UInt64 = 0
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            let chunk = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if index == 0 { head = chunk }
            hash = mix(hash ^ chunk)
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
            if index == 0 { head = tail }
            hash = mix(hash ^ tail)
        }
        return Key(hash: UInt32(truncatingIfNeeded: mix(hash)), head: head, length: bytes.count)
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }
}
