import TrawlStorage

/// How a stored block writes the ranks of its words (``CatalogLexicon``): a lead byte per word,
/// and for rarer words one, two or four tail bytes kept apart from the leads.
///
/// ```
/// lead 0...159      rank = lead
/// lead 160...223    one tail byte t:  rank = 160 + (lead - 160) << 8 + t
/// lead 224...254    two tail bytes:   rank = 16,544 + (lead - 224) << 16 + (t0 << 8 + t1)
/// lead 255          four tail bytes:  rank = 2,048,160 + their little-endian value
/// ```
/// Leads and tails apart give zlib's byte-wise Huffman codes two tables, one that follows how
/// often words occur and one of nearly even bytes: 3% smaller than varints on independent words.
/// Written by hand because zlib codes bytes, and no package in reach codes a large alphabet.
enum WordFrequencyCode {
    static let oneTail: UInt32 = 160
    static let twoTails: UInt32 = 160 + 64 << 8
    static let fourTails: UInt32 = twoTails + 31 << 16

    static func append(_ rank: UInt32, leads: inout [UInt8], tails: inout [UInt8]) {
        if rank < oneTail {
            leads.append(UInt8(rank))
        } else if rank < twoTails {
            let offset = rank - oneTail
            leads.append(UInt8(160 + offset >> 8))
            tails.append(UInt8(truncatingIfNeeded: offset))
        } else if rank < fourTails {
            let offset = rank - twoTails
            leads.append(UInt8(224 + offset >> 16))
            tails.append(UInt8(truncatingIfNeeded: offset >> 8))
            tails.append(UInt8(truncatingIfNeeded: offset))
        } else {
            let offset = rank - fourTails
            leads.append(255)
            for shift in stride(from: 0, to: 32, by: 8) { tails.append(UInt8(truncatingIfNeeded: offset >> UInt32(shift))) }
        }
    }

    /// How many tail bytes follow a word whose lead byte is `lead`.
    @inline(__always)
    static func tailCount(lead: UInt8) -> Int { lead < 160 ? 0 : lead < 224 ? 1 : lead < 255 ? 2 : 4 }

    /// Reads the ranks of a block's words: a varint count, the leads, then the tails.
    struct Reader {
        private let bytes: [UInt8]
        private var lead = 0
        private var leadsEnd = 0
        private var tail = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// Reads the count.
        mutating func start() throws(StoredFormatError) {
            var reader = StoredFormat.Reader(bytes: bytes, end: bytes.count)
            let count = try reader.count()
            lead = reader.position
            leadsEnd = lead + count
            tail = leadsEnd
        }

        /// Whether every lead and tail was read.
        var isAtEnd: Bool { lead == leadsEnd && tail == bytes.count }

        /// Moves past the next `count` ranks without reading them.
        mutating func skip(_ count: Int) throws(StoredFormatError) {
            guard count <= leadsEnd - lead else { throw .corrupt("more words than a block holds") }
            let tails = bytes.withUnsafeBufferPointer { bytes in
                var tails = 0
                for byte in UnsafeBufferPointer(rebasing: bytes[lead..<(lead + count)]) { tails += WordFrequencyCode.tailCount(lead: byte) }
                return tails
            }
            guard tails <= bytes.count - tail else { throw .corrupt("truncated word ranks") }
            lead += count
            tail += tails
        }

        @inline(__always)
        mutating func next() throws(StoredFormatError) -> Int {
            guard lead < leadsEnd else { throw .corrupt("more words than a block holds") }
            let byte = UInt32(bytes[lead])
            lead += 1
            if byte < WordFrequencyCode.oneTail { return Int(byte) }
            let tails = WordFrequencyCode.tailCount(lead: UInt8(byte))
            guard bytes.count - tail >= tails else { throw .corrupt("truncated word ranks") }
            defer { tail += tails }
            switch tails {
            case 1: return Int(WordFrequencyCode.oneTail + (byte - 160) << 8 + UInt32(bytes[tail]))
            case 2: return Int(WordFrequencyCode.twoTails + (byte - 224) << 16 + UInt32(bytes[tail]) << 8 + UInt32(bytes[tail + 1]))
            default:
                var offset = 0
                for index in 0..<4 { offset |= Int(bytes[tail + index]) << (8 * index) }
                return Int(WordFrequencyCode.fourTails) + offset
            }
        }
    }
}
