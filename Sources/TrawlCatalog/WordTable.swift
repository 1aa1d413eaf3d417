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
/// up every word of every item). Here a lookup hashes the bytes in place and compares them with
/// the stored word only when 32 bits of their hashes agree.
struct WordTable: Sendable {
    /// Per slot: the word's hash in the high 32 bits and its number plus one in the low (0: empty).
    /// The hash's low bits pick the first slot tried.
    private var slots = [UInt64](repeating: 0, count: 16)
    private var count = 0

    /// The number of the word `bytes` holds, given the words so far as `word(n)`; nil when new.
    func number(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt32, word: (UInt32) -> UnsafeBufferPointer<UInt8>) -> UInt32? {
        let mask = slots.count - 1
        let tag = UInt64(hash)
        var index = Int(hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { return nil }
            if slot >> 32 == tag {
                let number = UInt32(truncatingIfNeeded: slot) - 1
                let stored = word(number)
                if stored.count == bytes.count, stored.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0 { return number }
            }
            index = (index + 1) & mask
        }
    }

    /// Records word `number` with `hash` (not already there).
    mutating func insert(_ number: UInt32, hash: UInt32) {
        if (count + 1) * 2 > slots.count { grow() }
        place(UInt64(number) + 1 | UInt64(hash) << 32)
        count += 1
    }

    private mutating func place(_ slot: UInt64) {
        let mask = slots.count - 1
        var index = Int(slot >> 32) & mask
        while slots[index] != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    /// Doubles the table (the slots keep the hashes that place them).
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for slot in old where slot != 0 { place(slot) }
    }

    /// The hash of a word's bytes (a multiply-xorshift mix, eight bytes at a time).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
            hash = mix(hash ^ tail)
        }
        return UInt32(truncatingIfNeeded: mix(hash))
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }
}
