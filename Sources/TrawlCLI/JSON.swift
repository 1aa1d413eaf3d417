import TrawlKernels

/// Appends `bytes` (valid UTF-8) as a JSON string. Runs that need no escape are copied whole,
/// so a 50 MB line costs a copy, not a step per byte.
func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var index = 0
    while index < bytes.count, let base = bytes.baseAddress {
        let run = trawl_find_json_escape(base + index, bytes.count - index)
        output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: run))
        index += run
        guard index < bytes.count else { break }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        default:
            let hex = Array("0123456789abcdef".utf8)
            output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        }
        index += 1
    }
    output.append(UInt8(ascii: "\""))
}

/// JSON string escaping for the JSON Lines output (the input is valid UTF-8).
func jsonString(_ bytes: some Sequence<UInt8>) -> String {
    var output: [UInt8] = []
    let array = Array(bytes)
    array.withUnsafeBufferPointer { appendJSONString($0, to: &output) }
    return String(decoding: output, as: UTF8.self)
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
