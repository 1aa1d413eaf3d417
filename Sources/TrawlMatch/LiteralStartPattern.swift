/// A pattern whose every match starts with one of a few literals and then never needs to
/// backtrack, as `func\s+\w+\(` and `(struct|class|enum|protocol)\s+[A-Z]\w*` are: the literals
/// (one, or the alternatives of a group at the very start), then literal characters and character
/// classes, each class taken once, a fixed number of times or repeated greedily without bound, and
/// at most a final `\b`.
///
/// A class repeated without bound must be unable to hold the first character of what follows it
/// (`\s` cannot start `\w`, `\w` cannot be `(`): then the repeat can only stop where its run of
/// class characters ends, since any shorter run leaves a class character where the rest cannot
/// start. Each alternative's attempt is then one walk over the bytes, and an attempt at an
/// occurrence of a literal is decided by comparing bytes instead of by a call into PCRE2 (which
/// costs several times more, and such patterns have an attempt at every occurrence of a common
/// word). Only ASCII is decided: where a class meets a byte beyond ASCII (`\w` and `\s` are
/// Unicode-aware) or a line break it could take, or where a final `\b` fails after a repeat that
/// could give characters back, the attempt is left to PCRE2.
///
/// Matched line by line, such a pattern finds the same at an occurrence whether its subject is the
/// occurrence's line or all the text: a decided walk never takes a line break, and a line break
/// the current class cannot take ends its run, and fails a literal, just as the end of a line's
/// subject does.
struct LiteralStartPattern: Sendable {
    /// What the pattern holds after its starting literal, in order.
    enum Item: Sendable {
        /// Literal characters (ASCII, printable).
        case literal([UInt8])
        /// A class taken at least `minimum` times and at most `maximum` (nil: without bound).
        case run(ASCIISet, minimum: Int, maximum: Int?)
    }

    /// What an attempt at an offset found (a match's end, none, or left to PCRE2).
    typealias Outcome = RunMatchDecision.Outcome

    /// One step of an attempt, held without references (the attempts run once per occurrence of
    /// a common word: walking arrays of arrays there cost a retain and release per element).
    private struct Step: Sendable {
        /// Literal bytes (the range of ``bytes``) or a class run.
        let isLiteral: Bool
        let bytes: Range<Int>
        let members: ASCIISet
        let minimum: Int
        /// `Int.max` for a repeat without bound.
        let maximum: Int
    }

    /// The starting literals' steps (in the order PCRE2 tries them), then the steps of what
    /// follows them.
    private let steps: [Step]
    private let startCount: Int
    /// The bytes of every literal step.
    private let bytes: [UInt8]
    /// Whether the pattern ends with `\b`.
    private let endsWithWordBoundary: Bool
    /// Whether the walk's end is the only end an attempt can have: nothing follows the starting
    /// literals, or the last item is literal or taken a fixed number of times (every earlier
    /// repeat's length is forced by what follows it).
    private let endIsForced: Bool

    /// Nil unless `pattern` (as handed to PCRE2, matched case-sensitively) has this shape and its
    /// starting literals are `literals` (the prefilter's, found before its classes are compiled).
    init?(pattern: [UInt8], startingWith literals: Set<[UInt8]>) {
        var parser = Parser(pattern: pattern)
        guard let starts = parser.startingLiterals(), Set(starts) == literals, !starts.contains(where: { $0.isEmpty }),
              let (items, boundary) = parser.rest() else { return nil }
        // An unbounded repeat must not be able to take the first character of what follows it.
        for index in items.indices {
            guard case .run(let members, _, nil) = items[index] else { continue }
            guard members.isDisjoint(with: Self.firstCharacters(of: items[(index + 1)...])) else { return nil }
        }
        var bytes: [UInt8] = []
        func literalStep(_ literal: [UInt8]) -> Step {
            bytes += literal
            return Step(isLiteral: true, bytes: bytes.count - literal.count..<bytes.count, members: ASCIISet(), minimum: 0, maximum: 0)
        }
        var steps = starts.map(literalStep)
        for item in items {
            switch item {
            case .literal(let literal): steps.append(literalStep(literal))
            case .run(let members, let minimum, let maximum):
                steps.append(Step(isLiteral: false, bytes: 0..<0, members: members, minimum: minimum, maximum: maximum ?? Int.max))
            }
        }
        self.steps = steps
        self.bytes = bytes
        startCount = starts.count
        endsWithWordBoundary = boundary
        if case .run(_, let minimum, let maximum) = items.last { endIsForced = maximum == minimum } else { endIsForced = true }
    }

    /// The ASCII characters a match of `items` can start with.
    private static func firstCharacters(of items: ArraySlice<Item>) -> ASCIISet {
        var characters = ASCIISet()
        for item in items {
            switch item {
            case .literal(let bytes):
                characters.insert(bytes[0])
                return characters
            case .run(let members, let minimum, _):
                characters = characters.union(members)
                if minimum > 0 { return characters }
            }
        }
        return characters
    }

    /// The attempt at `start`; `subjectEnd` ends the text, `byte` reads it.
    @inline(__always)
    func decide(at start: Int, subjectEnd: Int, byte: (Int) -> UInt8) -> Outcome {
        steps.withUnsafeBufferPointer { steps in
            bytes.withUnsafeBufferPointer { bytes in
                for index in 0..<startCount {
                    let literal = bytes.extracting(steps[index].bytes)
                    guard start + literal.count <= subjectEnd, Self.literal(literal, at: start, byte: byte) else { continue }
                    let outcome = rest(from: start + literal.count, steps: steps, bytes: bytes, subjectEnd: subjectEnd, byte: byte)
                    if outcome != .none { return outcome }
                }
                return .none
            }
        }
    }

    @inline(__always)
    private static func literal(_ literal: UnsafeBufferPointer<UInt8>, at offset: Int, byte: (Int) -> UInt8) -> Bool {
        var index = 0
        while index < literal.count {
            guard byte(offset + index) == literal[index] else { return false }
            index += 1
        }
        return true
    }

    /// The walk over the steps after the starting literals, from `offset`.
    @inline(__always)
    private func rest(from offset: Int, steps: UnsafeBufferPointer<Step>, bytes: UnsafeBufferPointer<UInt8>, subjectEnd: Int,
                      byte: (Int) -> UInt8) -> Outcome {
        var at = offset
        for index in startCount..<steps.count {
            let step = steps[index]
            if step.isLiteral {
                let literal = bytes.extracting(step.bytes)
                guard at + literal.count <= subjectEnd, Self.literal(literal, at: at, byte: byte) else { return .none }
                at += literal.count
                continue
            }
            var count = 0
            while count < step.maximum && at < subjectEnd {
                let value = byte(at)
                guard value < 0x80 else { return .undecided }
                guard step.members.contains(value) else { break }
                guard value != 0x0A && value != 0x0D else { return .undecided }
                at += 1
                count += 1
            }
            if count < step.minimum { return .none }
        }
        if endsWithWordBoundary {
            let before = RunMatchDecision.isWord(byte(at - 1))
            var after = false
            if at < subjectEnd {
                let value = byte(at)
                guard value < 0x80 else { return .undecided }
                after = RunMatchDecision.isWord(value)
            }
            // A repeat at the end might still give back characters until the boundary holds.
            if before == after { return endIsForced ? .none : .undecided }
        }
        return .match(end: at)
    }
}

extension LiteralStartPattern {
    /// Reads the shape from a pattern; any construct outside it ends the reading with nil.
    private struct Parser {
        let pattern: [UInt8]
        var index = 0

        static let metacharacters = Set("\\^$.|?*+()[]{}".utf8)
        static let quantifiers = Set("?*+{".utf8)
        static let classEscapes = Set("wdsWDS".utf8)
        /// What makes a repeat lazy or possessive.
        static let repeatModifiers = Set("?+".utf8)

        /// One literal, or a group of literal alternatives, at the start.
        mutating func startingLiterals() -> [[UInt8]]? {
            if pattern.first == UInt8(ascii: "(") {
                index = 1
                if pattern.count > 2 && pattern[1] == UInt8(ascii: "?") {
                    guard pattern[2] == UInt8(ascii: ":") else { return nil }
                    index = 3
                }
                var alternatives: [[UInt8]] = [[]]
                while index < pattern.count {
                    if pattern[index] == UInt8(ascii: "|") {
                        alternatives.append([])
                        index += 1
                    } else if pattern[index] == UInt8(ascii: ")") {
                        index += 1
                        guard index == pattern.count || !Self.quantifiers.contains(pattern[index]) else { return nil }
                        return alternatives
                    } else {
                        guard let character = literalCharacter() else { return nil }
                        alternatives[alternatives.count - 1].append(character)
                    }
                }
                return nil
            }
            var literal: [UInt8] = []
            while let character = literalCharacter() { literal.append(character) }
            return [literal]
        }

        /// The items after the starting literals, and whether a final `\b` ends the pattern.
        mutating func rest() -> ([Item], Bool)? {
            var items: [Item] = []
            while index < pattern.count {
                if index == pattern.count - 2 && pattern[index] == UInt8(ascii: "\\") && pattern[index + 1] == UInt8(ascii: "b") {
                    return (items, true)
                }
                if let character = literalCharacter() {
                    if case .literal(let bytes) = items.last {
                        items[items.count - 1] = .literal(bytes + [character])
                    } else {
                        items.append(.literal([character]))
                    }
                    continue
                }
                guard let run = classRun() else { return nil }
                items.append(run)
            }
            return (items, false)
        }

        /// A printable ASCII character standing for itself (or escaped punctuation), not followed
        /// by a quantifier; nil, reading nothing, otherwise.
        mutating func literalCharacter() -> UInt8? {
            guard index < pattern.count else { return nil }
            var character = pattern[index], length = 1
            if character == UInt8(ascii: "\\") {
                guard index + 1 < pattern.count else { return nil }
                character = pattern[index + 1]
                length = 2
                // Escaped punctuation stands for itself; an escaped letter or digit is something else.
                guard character > 0x20 && character < 0x7F, !Self.isAlphanumeric(character) else { return nil }
            } else {
                guard character >= 0x20 && character < 0x7F, !Self.metacharacters.contains(character) else { return nil }
            }
            let next = index + length
            guard next == pattern.count || !Self.quantifiers.contains(pattern[next]) else { return nil }
            index = next
            return character
        }

        /// A class (`\w`, `\d`, `\s` and their negations, or a bracket class without nested
        /// brackets) with `+`, `*`, `{n}`, `{n,}` or no quantifier.
        mutating func classRun() -> Item? {
            let start = index
            guard index < pattern.count else { return nil }
            if pattern[index] == UInt8(ascii: "\\") {
                guard index + 1 < pattern.count, Self.classEscapes.contains(pattern[index + 1]) else { return nil }
                index += 2
            } else if pattern[index] == UInt8(ascii: "[") {
                index += 1
                if index < pattern.count && pattern[index] == UInt8(ascii: "^") { index += 1 }
                // A `]` first stands for itself.
                if index < pattern.count && pattern[index] == UInt8(ascii: "]") { index += 1 }
                while index < pattern.count && pattern[index] != UInt8(ascii: "]") {
                    // No POSIX classes or nested brackets; escapes only of punctuation or of a class
                    // (`\c`, `\Q`, `\x{…}` and the like read further than one character).
                    guard pattern[index] != UInt8(ascii: "[") else { return nil }
                    if pattern[index] == UInt8(ascii: "\\") {
                        guard index + 1 < pattern.count else { return nil }
                        let escaped = pattern[index + 1]
                        guard Self.classEscapes.contains(escaped) || escaped > 0x20 && escaped < 0x7F && !Self.isAlphanumeric(escaped) else { return nil }
                        index += 2
                    } else {
                        index += 1
                    }
                }
                guard index < pattern.count else { return nil }
                index += 1
            } else {
                return nil
            }
            guard let members = ASCIISet(characterClass: String(decoding: pattern[start..<index], as: UTF8.self), caseless: false),
                  let (minimum, maximum) = quantifier(), maximum.map({ $0 == minimum && $0 > 0 }) ?? true else { return nil }
            // Lazy and possessive repeats are left to PCRE2.
            guard index == pattern.count || !Self.repeatModifiers.contains(pattern[index]) else { return nil }
            return .run(members, minimum: minimum, maximum: maximum)
        }

        /// `+`, `*`, `{n}`, `{n,}`, or none (once).
        mutating func quantifier() -> (Int, Int?)? {
            guard index < pattern.count else { return (1, 1) }
            switch pattern[index] {
            case UInt8(ascii: "+"): index += 1; return (1, nil)
            case UInt8(ascii: "*"): index += 1; return (0, nil)
            case UInt8(ascii: "?"): return nil
            case UInt8(ascii: "{"):
                var cursor = index + 1, value = 0, digits = 0
                while cursor < pattern.count, Self.isDigit(pattern[cursor]), digits < 6 {
                    value = value * 10 + Int(pattern[cursor] - 0x30)
                    cursor += 1
                    digits += 1
                }
                guard digits > 0, cursor < pattern.count else { return nil }
                if pattern[cursor] == UInt8(ascii: "}") {
                    index = cursor + 1
                    return (value, value)
                }
                guard pattern[cursor] == UInt8(ascii: ","), cursor + 1 < pattern.count, pattern[cursor + 1] == UInt8(ascii: "}") else { return nil }
                index = cursor + 2
                return (value, nil)
            default:
                return (1, 1)
            }
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    }
}
