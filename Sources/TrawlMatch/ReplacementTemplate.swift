import TrawlText

/// A replacement, parsed once and applied to many matches without any regex work.
///
/// In regex mode the template understands:
/// - `$0` and `$&` (the whole match), `$1`…`$99` (the longest existing group number of at most two
///   digits: with 3 groups, `$12` is group 1 then `2`), `${12}` and `${name}`, and `$$` (a dollar);
/// - the escapes `\n`, `\t` and `\\` (any other backslash stays as typed);
/// - case operators: `\u` and `\l` change the next character, `\U` and `\L` everything up to the end
///   of the next group reference (`\U$1` upper-cases group 1).
///
/// A group that did not take part in the match expands to nothing. In literal mode the replacement
/// is inserted exactly as typed. With ``preserveCase`` a static replacement (one with no group
/// references) takes the case of the text it replaces — all caps, lowercase or capitalized, or per
/// segment when both are split the same way on `-` or `_` — as VS Code does.
public struct ReplacementTemplate: Hashable, Sendable {
    enum Piece: Hashable, Sendable {
        case text(String)
        case group(Int)
        case upperNext, lowerNext, upperSpan, lowerSpan
    }

    let pieces: [Piece]
    /// Whether a static replacement adapts to the case of the text it replaces.
    public var preserveCase: Bool

    /// A replacement inserted exactly as typed.
    public init(literal text: String, preserveCase: Bool = false) {
        pieces = text.isEmpty ? [] : [.text(text)]
        self.preserveCase = preserveCase
    }

    /// Parses a regex-mode template against a pattern's groups.
    /// - Throws: ``ReplacementTemplateError`` naming the offset (in UTF-8 bytes) of the bad reference.
    public init(_ template: String, groupCount: Int, groupNumbers: [String: Int] = [:],
                preserveCase: Bool = false) throws(ReplacementTemplateError) {
        self.preserveCase = preserveCase
        var pieces: [Piece] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        let bytes = Array(template.utf8)
        var index = 0
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (0x30...0x39).contains(bytes[i]) }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "$"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                if next == UInt8(ascii: "$") {
                    literal += "$"
                    index += 2
                    continue
                }
                if next == UInt8(ascii: "&") {
                    flush(); pieces.append(.group(0)); index += 2
                    continue
                }
                if isDigit(index + 1) {
                    let one = Int(next - 0x30)
                    let two = isDigit(index + 2) ? one * 10 + Int(bytes[index + 2] - 0x30) : nil
                    if let two, two <= groupCount {
                        flush(); pieces.append(.group(two)); index += 3
                    } else if one <= groupCount {
                        flush(); pieces.append(.group(one)); index += 2
                    } else {
                        throw ReplacementTemplateError(message: "no group \(two ?? one) in the pattern (it has \(groupCount)); write $$ for a dollar sign", offset: index)
                    }
                    continue
                }
                if next == UInt8(ascii: "{") {
                    guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                        throw ReplacementTemplateError(message: "unterminated ${", offset: index)
                    }
                    let name = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
                    if name.isEmpty { throw ReplacementTemplateError(message: "empty group reference ${}", offset: index) }
                    if let number = Int(name), name.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                        guard number <= groupCount else {
                            throw ReplacementTemplateError(message: "no group \(number) in the pattern (it has \(groupCount))", offset: index)
                        }
                        flush(); pieces.append(.group(number))
                    } else if let number = groupNumbers[name] {
                        flush(); pieces.append(.group(number))
                    } else {
                        throw ReplacementTemplateError(message: "no group named '\(name)' in the pattern", offset: index)
                    }
                    index = close + 1
                    continue
                }
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let operation: Piece?
                switch bytes[index + 1] {
                case UInt8(ascii: "n"): literal += "\n"; operation = nil
                case UInt8(ascii: "t"): literal += "\t"; operation = nil
                case UInt8(ascii: "\\"): literal += "\\"; operation = nil
                case UInt8(ascii: "u"): operation = .upperNext
                case UInt8(ascii: "l"): operation = .lowerNext
                case UInt8(ascii: "U"): operation = .upperSpan
                case UInt8(ascii: "L"): operation = .lowerSpan
                default:
                    literal += "\\"
                    index += 1
                    continue
                }
                if let operation {
                    flush()
                    pieces.append(operation)
                }
                index += 2
                continue
            }
            // Copy one whole scalar.
            let length = UTF8Bytes.scalarLength(lead: byte)
            literal += String(decoding: bytes[index..<min(index + length, bytes.count)], as: UTF8.self)
            index += length
        }
        flush()
        self.pieces = pieces
    }

    /// Whether the replacement is the same for every match (no group references).
    /// The highest group number the template names (0 when it names none but the whole match).
    var highestGroup: Int { pieces.compactMap { if case .group(let number) = $0 { number } else { nil } }.max() ?? 0 }

    /// Whether the template refers to no group: every match is replaced by the same text.
    public var isStatic: Bool { !pieces.contains { if case .group = $0 { true } else { false } } }

    /// The replacement for `match`, reading its groups from `text`.
    public func expand(_ match: Match, in text: some SearchableText) -> String {
        expand(match) { text.bytes(in: $0) }
    }

    /// The replacement for `match`, reading group contents through `bytes`.
    public func expand(_ match: Match, bytes: (Range<Int>) -> [UInt8]) -> String {
        assert(highestGroup == 0 || !match.groups.isEmpty,
               "the match has no capture groups: make its cursor with capturesGroups (or capturingGroups: true)")
        if preserveCase && isStatic {
            let plain = pieces.reduce(into: "") { result, piece in if case .text(let text) = piece { result += text } }
            return ReplacementTemplate.withCase(of: String(decoding: bytes(match.range), as: UTF8.self), applied: plain)
        }
        var result = ""
        // Consecutive `\u`/`\l` apply in turn to successive characters (VS Code: `\u\u$1` makes
        // the first two upper case); a span operator applies to the rest.
        var nextCharacters: [Piece] = []
        var span: Piece?
        func emit(_ string: String, endsSpan: Bool) {
            var string = string
            if let operation = span { string = operation == .upperSpan ? string.uppercased() : string.lowercased() }
            if !nextCharacters.isEmpty, !string.isEmpty {
                let count = min(nextCharacters.count, string.count)
                let head = zip(nextCharacters, string).map { operation, character in
                    operation == .upperNext ? String(character).uppercased() : String(character).lowercased()
                }.joined()
                string = head + string.dropFirst(count)
                nextCharacters.removeFirst(count)
            }
            result += string
            if endsSpan { span = nil }
        }
        for piece in pieces {
            switch piece {
            case .text(let text):
                emit(text, endsSpan: false)
            case .group(let number):
                let content = match[group: number].map { String(decoding: bytes($0), as: UTF8.self) } ?? ""
                emit(content, endsSpan: true)
            case .upperNext, .lowerNext:
                nextCharacters.append(piece)
            case .upperSpan, .lowerSpan:
                span = piece
            }
        }
        return result
    }

    /// `replacement` in the case of `original` (VS Code's preserve-case rules).
    public static func withCase(of original: String, applied replacement: String) -> String {
        guard !original.isEmpty, !replacement.isEmpty else { return replacement }
        for separator: Character in ["-", "_"] {
            let other: Character = separator == "-" ? "_" : "-"
            let originalParts = original.split(separator: separator, omittingEmptySubsequences: false)
            let replacementParts = replacement.split(separator: separator, omittingEmptySubsequences: false)
            if originalParts.count > 1, originalParts.count == replacementParts.count,
               !(original.contains(other) && original.split(separator: other, omittingEmptySubsequences: false).count
                    == replacement.split(separator: other, omittingEmptySubsequences: false).count) {
                return zip(originalParts, replacementParts).map { withCase(of: String($0), applied: String($1)) }
                    .joined(separator: String(separator))
            }
        }
        if original.uppercased() == original && original.lowercased() != original { return replacement.uppercased() }
        if original.lowercased() == original && original.uppercased() != original { return replacement.lowercased() }
        let first = original.first!
        if first.isUppercase { return replacement.prefix(1).uppercased() + replacement.dropFirst() }
        if first.isLowercase { return replacement.prefix(1).lowercased() + replacement.dropFirst() }
        return replacement
    }
}

/// A replacement template that cannot be parsed, with the byte offset of the problem.
public struct ReplacementTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The byte offset of the problem in the template.
    public var offset: Int

    /// The error `message` at `offset`.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message with its offset.
    public var description: String { "invalid replacement at offset \(offset): \(message)" }
}

extension Matcher {
    /// Parses a replacement template against this pattern's groups (a literal has none).
    public func template(_ replacement: String, preserveCase: Bool = false) throws(ReplacementTemplateError) -> ReplacementTemplate {
        try ReplacementTemplate(replacement, groupCount: captureCount, groupNumbers: groupNumbers, preserveCase: preserveCase)
    }
}
