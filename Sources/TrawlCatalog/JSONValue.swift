/// A parsed JSON value (RFC 8259), enough to read catalog items.
///
/// Hand-written rather than Foundation's `JSONSerialization` or `JSONDecoder`: building a catalog
/// parses a million lines, and Foundation would cost every `trawl` command its start-up time.
public enum JSONValue: Hashable, Sendable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why a text is not JSON, and the byte offset where it stopped being JSON.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The byte offset (from 0) where the text stopped being JSON.
        public var offset: Int
        /// The message with its position, counted from 1.
        public var description: String { "\(message) at byte \(offset + 1)" }
    }

    /// Parses `text`, which must hold one JSON value (surrounding white space allowed).
    public init(parsing text: String) throws(ParseError) {
        var text = text
        let result: Result<JSONValue, ParseError> = text.withUTF8 { bytes in
            var parser = Parser(bytes: bytes)
            do throws(ParseError) {
                let value = try parser.value(depth: 0)
                parser.skipSpace()
                guard parser.index == bytes.count else { throw parser.error("unexpected text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 512

        func error(_ message: String) -> ParseError { ParseError(message: message, offset: index) }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            skipSpace()
            guard index < bytes.count else { throw error("expected a value, found the end") }
            guard depth < Self.maximumDepth else { throw error("nested too deeply") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                    let name = try string()
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
                    index += 1
                    members[name] = try value(depth: depth + 1)
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                    index += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                    index += 1
                    return .array(elements)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try keyword("true"); return .bool(true)
            case UInt8(ascii: "f"): try keyword("false"); return .bool(false)
            case UInt8(ascii: "n"): try keyword("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return .number(try number())
            default:
                throw error("unexpected character")
            }
        }

        mutating func keyword(_ word: StaticString) throws(ParseError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                  UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[index..<(index + count)]) else {
                throw error("unexpected word")
            }
            index += count
        }

        mutating func number() throws(ParseError) -> String {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { throw error("expected digits") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() else { throw error("expected digits after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() else { throw error("expected exponent digits") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        private mutating func digits() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index > start
        }

        mutating func string() throws(ParseError) -> String {
            index += 1 // the opening quote
            let start = index
            // The common case: no escapes, so the bytes are the string.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw error("control character in a string") }
                index += 1
            }
            var output = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: output, as: UTF8.self)
                }
                guard byte >= 0x20 else { throw error("control character in a string") }
                guard byte == UInt8(ascii: "\\") else { output.append(byte); index += 1; continue }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    var value = try hex4()
                    if (0xD800..<0xDC00).contains(value), index + 6 <= bytes.count,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        let save = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00..<0xE000).contains(low) {
                            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = save
                        }
                    }
                    output.append(contentsOf: String(Unicode.Scalar(value) ?? "\u{FFFD}").utf8)
                default:
                    index -= 1
                    throw error("unknown escape")
                }
            }
            throw error("unterminated string")
        }

        private mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index] | 0x20
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw error("bad hex digit in \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
