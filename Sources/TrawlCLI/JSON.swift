import TrawlKernels

/// Writes JSON into a byte buffer: the writer places the quotes, colons, commas and escapes, so
/// the output is well-formed by construction (no message is assembled by string interpolation).
///
/// Hand-written rather than Foundation's `JSONEncoder`: the printers stream large texts (a 50 MB
/// line is one string value) straight from the searched bytes, escaping with a vector scan, and
/// keep ripgrep's member order; an encoder of `Codable` values would copy every line into a
/// `String` first, and Foundation costs start-up time on every run.
struct JSONWriter {
    var output: [UInt8] = []
    /// Whether the next member or element is the first of its object or array (no comma).
    private var isFirst = true

    /// Writes into `output` (appending), without copying it.
    static func append(to output: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        swap(&writer.output, &output)
        body(&writer)
        swap(&writer.output, &output)
    }

    /// One JSON Lines message: the value `body` writes, then a line feed.
    static func line(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        body(&writer)
        writer.output.append(0x0A)
        return writer.output
    }

    // MARK: Containers

    mutating func object(_ body: (inout JSONWriter) -> Void) { container(UInt8(ascii: "{"), UInt8(ascii: "}"), body) }

    mutating func array(_ body: (inout JSONWriter) -> Void) { container(UInt8(ascii: "["), UInt8(ascii: "]"), body) }

    private mutating func container(_ open: UInt8, _ close: UInt8, _ body: (inout JSONWriter) -> Void) {
        output.append(open)
        isFirst = true
        body(&self)
        output.append(close)
        isFirst = false
    }

    /// Starts an object member; its value must follow.
    mutating func key(_ name: StaticString) {
        separate()
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Starts an object member with a name known only at run time; its value must follow.
    mutating func key(_ name: String) {
        separate()
        string(name)
        output.append(UInt8(ascii: ":"))
    }

    /// Starts an array element; its value must follow.
    mutating func element() { separate() }

    private mutating func separate() {
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
    }

    // MARK: Values

    mutating func null() { output.append(contentsOf: "null".utf8) }
    mutating func bool(_ value: Bool) { output.append(contentsOf: (value ? "true" : "false").utf8) }
    mutating func number(_ value: some BinaryInteger) { output.append(contentsOf: String(value).utf8) }
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string($0) }
    }

    /// A string value from valid UTF-8. Runs that need no escape are copied whole, so a 50 MB line
    /// costs a copy, not a step per byte.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= 1 << 16 {
            // Room for a long string and what usually follows it (a line's submatches), at once:
            // growing by doubling would copy a 50 MB line several times and touch twice the pages.
            output.reserveCapacity(output.count + bytes.count + bytes.count / 8 + 4096)
        }
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

    mutating func string(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { string($0) } }

    // MARK: Members

    mutating func member(_ name: StaticString, _ value: some BinaryInteger) { key(name); number(value) }
    mutating func member(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    mutating func member(_ name: StaticString, _ value: String) { key(name); string(value) }
    mutating func member(_ name: StaticString, object body: (inout JSONWriter) -> Void) { key(name); object(body) }
    mutating func member(_ name: StaticString, array body: (inout JSONWriter) -> Void) { key(name); array(body) }

    /// A `{"text": …}` member, ripgrep's form for text.
    mutating func textMember(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) {
        member(name, object: { writer in
            writer.key("text")
            writer.string(bytes)
        })
    }

    /// Elapsed time in ripgrep's form.
    mutating func duration(nanoseconds: UInt64) {
        object { writer in
            writer.member("secs", nanoseconds / 1_000_000_000)
            writer.member("nanos", nanoseconds % 1_000_000_000)
            writer.member("human", formatSeconds(nanoseconds))
        }
    }
}

func formatSeconds(_ nanoseconds: UInt64) -> String {
    let seconds = Double(nanoseconds) / 1e9
    let rounded = (seconds * 1_000_000).rounded() / 1_000_000
    return "\(rounded)s"
}
