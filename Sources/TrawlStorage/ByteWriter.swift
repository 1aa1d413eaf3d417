/// Writes the index formats' integers and bytes into memory sized beforehand, with no capacity
/// check per byte: appending to an array byte by byte made a refresh's manifest (tens of thousands
/// of paths and signatures) one of its longest steps on one core.
package struct ByteWriter {
    private let start: UnsafeMutablePointer<UInt8>
    private var next: UnsafeMutablePointer<UInt8>
    private let end: UnsafeMutablePointer<UInt8>

    private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress!
        next = start
        end = start + buffer.count
    }

    /// The bytes `body` writes, at most `capacity` of them (more is a programming error).
    package static func bytes(capacity: Int, _ body: (inout ByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, initialized in
            var writer = ByteWriter(buffer)
            body(&writer)
            initialized = writer.count
        }
    }

    /// The bytes written so far.
    package var count: Int { next - start }

    package mutating func byte(_ value: UInt8) {
        precondition(next < end, "ByteWriter: more bytes than its capacity")
        next.initialize(to: value)
        next += 1
    }

    /// LEB128: at most 10 bytes.
    package mutating func varint(_ value: UInt64) {
        precondition(end - next >= 10, "ByteWriter: more bytes than its capacity")
        var value = value
        while value >= 0x80 {
            next.initialize(to: UInt8(truncatingIfNeeded: value) | 0x80)
            next += 1
            value >>= 7
        }
        next.initialize(to: UInt8(value))
        next += 1
    }

    /// A signed value as a varint (small magnitudes in few bytes).
    package mutating func zigzag(_ value: Int) {
        varint(UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63))
    }

    /// The low `width` bytes of `value`, little-endian.
    package mutating func uint(_ value: UInt64, _ width: Int) {
        for shift in 0..<width { byte(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    package mutating func bytes(_ bytes: ArraySlice<UInt8>) {
        precondition(end - next >= bytes.count, "ByteWriter: more bytes than its capacity")
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { next.initialize(from: base, count: source.count) }
        }
        next += bytes.count
    }
}
