import CZlib

/// zlib's deflate at its fastest level, for the stored catalog's blocks of items. zlib ships with
/// every Linux and Apple system; level 1 stores item text in about half its size and fast enough
/// (blocks are deflated on all cores) that saving stays a small share of a build.
enum Deflate {
    /// `bytes` compressed (a zlib stream), by deflate or by Huffman codes alone, whichever is
    /// smaller, and the zlib strategy that made it: a column of word numbers that repeats no
    /// sequence (words drawn independently) loses about 3% to deflate's string matches, and one
    /// that does (real descriptions) gains a third.
    static func compressSmaller(_ bytes: [UInt8]) -> (stream: [UInt8], strategy: Int32) {
        let matched = compress(bytes)
        let coded = compress(bytes, strategy: Z_HUFFMAN_ONLY)
        return coded.count < matched.count ? (coded, Z_HUFFMAN_ONLY) : (matched, Z_DEFAULT_STRATEGY)
    }

    /// `bytes` compressed (a zlib stream) with zlib's `strategy`.
    static func compress(_ bytes: [UInt8], strategy: Int32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(compressBound(uLong(bytes.count))))
        var stream = z_stream()
        var status = deflateInit2_(&stream, 1, Z_DEFLATED, 15, 8, strategy, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "deflate failed to start (\(status))")
        var written = 0
        bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                status = deflate(&stream, Z_FINISH)
                written = target.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        // The target has zlib's own bound, so one call finishes.
        precondition(status == Z_STREAM_END, "deflate failed (\(status))")
        out.removeLast(out.count - written)
        return out
    }

    /// `bytes` compressed (a zlib stream).
    static func compress(_ bytes: [UInt8]) -> [UInt8] { compress(bytes, strategy: Z_DEFAULT_STRATEGY) }

    /// The `count` bytes that `stream` holds compressed; nil when it is not a zlib stream of
    /// exactly that many bytes.
    static func decompress(_ stream: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        guard count > 0 else { return nil }
        var status = Z_OK
        var length = uLong(count)
        let out = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            status = stream.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count))
            }
            initialized = status == Z_OK ? Int(length) : 0
        }
        guard status == Z_OK, out.count == count else { return nil }
        return out
    }
}
