/// SipHash-2-4 (Aumasson and Bernstein): a keyed hash that authenticates a message to whoever holds
/// the key. The manifest of a tree's index carries one under the user's ``UserKey``, so an index
/// that came with a tree (cloned, unpacked, planted) is never taken for one this user built; so
/// do the names of temporary files, so that a later run removes only its own leftovers.
///
/// Written here because the toolchain has no keyed hash, and swift-crypto's HMAC would bring
/// Foundation and BoringSSL into a static binary whose start-up is measured in microseconds.
package struct SipHash {
    private var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64

    private init(key: UserKey) {
        v0 = key.k0 ^ 0x736F_6D65_7073_6575
        v1 = key.k1 ^ 0x646F_7261_6E64_6F6D
        v2 = key.k0 ^ 0x6C79_6765_6E65_7261
        v3 = key.k1 ^ 0x7465_6462_7974_6573
    }

    /// The SipHash-2-4 of `bytes` under `key`.
    package static func hash(_ bytes: UnsafeRawBufferPointer, key: UserKey) -> UInt64 {
        var state = SipHash(key: key)
        let words = bytes.count / 8
        for word in 0..<words { state.compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self))) }
        var last = UInt64(truncatingIfNeeded: bytes.count) << 56
        for index in (words * 8)..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - words * 8)) }
        state.compress(last)
        state.v2 ^= 0xFF
        for _ in 0..<4 { state.round() }
        return state.v0 ^ state.v1 ^ state.v2 ^ state.v3
    }

    /// The SipHash-2-4 of `bytes` under `key`.
    package static func hash(_ bytes: ArraySlice<UInt8>, key: UserKey) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, key: key) }
    }

    @inline(__always)
    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    @inline(__always)
    private mutating func round() {
        v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
        v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
