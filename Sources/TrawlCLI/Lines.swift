import TrawlKernels

/// Line arithmetic on one contiguous buffer: line starts and ends, and 1-based line numbers for
/// offsets visited in increasing order (counting line feeds incrementally, with the SIMD kernel).
struct LineLocator {
    let bytes: UnsafeBufferPointer<UInt8>
    private var countedOffset = 0
    private var countedLine = 1

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The start of the line holding `offset`.
    func lineStart(_ offset: Int) -> Int {
        guard offset > 0, let base = bytes.baseAddress else { return 0 }
        let found = trawl_find_last_byte(base, offset, 0x0A)
        return found == offset ? 0 : found + 1
    }

    /// The offset just past the line holding `offset` (past its LF, or the end of the text).
    func lineEnd(_ offset: Int) -> Int {
        guard offset < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        let found = trawl_find_byte(base + offset, bytes.count - offset, 0x0A)
        return found == bytes.count - offset ? bytes.count : offset + found + 1
    }

    /// The 1-based number of the line holding `offset`.
    mutating func lineNumber(_ offset: Int) -> Int {
        if offset < countedOffset {
            countedOffset = 0
            countedLine = 1
        }
        if offset > countedOffset, let base = bytes.baseAddress {
            countedLine += trawl_count_newlines(base + countedOffset, offset - countedOffset)
            countedOffset = offset
        }
        return countedLine
    }
}

/// JSON string escaping for the JSON Lines output (the input is valid UTF-8).
func jsonString(_ bytes: some Sequence<UInt8>) -> String {
    var result = "\""
    var scalars: [UInt8] = []
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "\""): scalars += Array("\\\"".utf8)
        case UInt8(ascii: "\\"): scalars += Array("\\\\".utf8)
        case 0x0A: scalars += Array("\\n".utf8)
        case 0x0D: scalars += Array("\\r".utf8)
        case 0x09: scalars += Array("\\t".utf8)
        case 0..<0x20, 0x7F:
            let hex = String(byte, radix: 16)
            scalars += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: scalars.append(byte)
        }
    }
    result += String(decoding: scalars, as: UTF8.self)
    return result + "\""
}

func jsonString(_ string: String) -> String { jsonString(string.utf8) }

/// Elapsed time in ripgrep's JSON form.
func jsonDuration(nanoseconds: UInt64) -> String {
    let seconds = nanoseconds / 1_000_000_000
    return "{\"secs\":\(seconds),\"nanos\":\(nanoseconds % 1_000_000_000),\"human\":\"\(formatSeconds(nanoseconds))\"}"
}

func formatSeconds(_ nanoseconds: UInt64) -> String {
    let seconds = Double(nanoseconds) / 1e9
    let rounded = (seconds * 1_000_000).rounded() / 1_000_000
    return "\(rounded)s"
}
