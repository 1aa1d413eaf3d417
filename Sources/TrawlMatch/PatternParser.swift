import TrawlText

/// A recursive-descent reader of PCRE2 syntax that computes ``PatternInfo`` and notes where the
/// pattern asks for a line feed (for ``PatternRewrite``).
struct PatternParser {
    struct Flags {
        var caseless: Bool
        var dotAll = false
        var extended = false
        var extendedMore = false
    }

    let pattern: [UInt8]
    var index = 0
    /// What to rewrite (line feeds outside classes and lookbehinds, JavaScript escapes).
    var rewrites: [PatternRewrite.Site] = []
    var failed = false
    var mentionsLineBreak = false
    var hasSubjectAssertions = false
    /// Any zero-width assertion: anchors, `\b`, `\B`, `\K`, lookaround.
    var hasAssertions = false
    /// Whether an assertion looks at the character after the position (`$`, `\b`, `\B`, `\Z`,
    /// `\z`), and whether a lookahead group looks any distance ahead.
    var looksOneCharacterAhead = false
    var hasLookahead = false
    /// Whether a match can depend on text any distance before it: `\K` (the match starts after
    /// text the pattern consumed) and `\X` (a flag emoji pairs with the regional indicators
    /// before it).
    var looksUnboundedBehind = false
    /// Whether `\K` resets the reported start: then the consumed literals need not be in the match.
    var resetsMatchStart = false
    /// Inside a lookbehind `\n` stays as written: PCRE2 needs fixed-length lookbehinds, and the
    /// character before a position after CRLF is the LF anyway.
    var lookbehindDepth = 0
    /// Inside a `\Q…\E` quote.
    var inQuote = false
    /// The deepest nesting of groups read (PCRE2's default limit).
    static let nestingLimit = 250
    /// How many groups enclose the position, and how many branches the pattern's top level has.
    private var groupDepth = 0
    private(set) var topLevelBranches = 1
    var initialFlags: Flags

    init(pattern: [UInt8], caseless: Bool) {
        self.pattern = pattern
        initialFlags = Flags(caseless: caseless)
    }

    private var atEnd: Bool { index >= pattern.count }
    private func peek(_ ahead: Int = 0) -> UInt8? { index + ahead < pattern.count ? pattern[index + ahead] : nil }

    /// Moves past `count` bytes of the pattern.
    private mutating func advance(_ count: Int = 1) {
        index = Swift.min(index + count, pattern.count)
    }

    private mutating func noteLineFeed(consuming count: Int, quoted: Bool = false) {
        mentionsLineBreak = true
        if lookbehindDepth == 0 { rewrites.append(.lineFeed(index..<(index + count), quoted: quoted)) }
        advance(count)
    }

    mutating func parseTopLevel() -> PatternInfo {
        // Leading (*VERB) settings such as (*UTF) or (*CRLF) change how the whole pattern is read.
        if peek() == UInt8(ascii: "("), peek(1) == UInt8(ascii: "*") { failed = true }
        var flags = initialFlags
        var info = parseAlternation(&flags)
        while !atEnd {
            // An unbalanced ')' is a PCRE2 error; copy the rest so PCRE2 reports it.
            failed = true
            advance()
            info = .unknown(lineFeed: true)
            _ = parseAlternation(&flags)
        }
        return info
    }

    private mutating func parseAlternation(_ flags: inout Flags) -> PatternInfo {
        var branches = [parseSequence(&flags)]
        while peek() == UInt8(ascii: "|") {
            advance()
            branches.append(parseSequence(&flags))
        }
        if groupDepth == 0 { topLevelBranches = branches.count }
        return .alternation(branches)
    }

    /// The pattern's first item when it is one character class repeated without an upper bound
    /// (`[a-z]+`, `\w*`, `\d{2,}`, lazy or possessive too): the class as written, where the
    /// repeat ends, its least count and its kind. Reads from the pattern's start, on a parser that
    /// has read nothing yet.
    mutating func leadingClassRepeat() -> (atom: Range<Int>, end: Int, minimum: Int, kind: LeadingRun.Kind)? {
        guard index == 0, let first = peek() else { return nil }
        switch first {
        case UInt8(ascii: "["):
            _ = parseClass(initialFlags)
        case UInt8(ascii: "\\"):
            guard let escaped = peek(1), Array("wWdDsShH".utf8).contains(escaped) else { return nil }
            advance(2)
        default:
            return nil
        }
        let atomEnd = index
        guard !failed, rewrites.isEmpty, let (min, max) = parseQuantifier(), max == nil else { return nil }
        // A lazy `?` or possessive `+` after the quantifier (whose own text ends at `}` or is one byte).
        let quantifierEnd = pattern[atomEnd] == UInt8(ascii: "{") ? pattern[atomEnd...].firstIndex(of: UInt8(ascii: "}"))! + 1 : atomEnd + 1
        let kind: LeadingRun.Kind = index == quantifierEnd ? .greedy : pattern[quantifierEnd] == UInt8(ascii: "?") ? .lazy : .possessive
        return (0..<atomEnd, index, min, kind)
    }

    private mutating func skipExtendedSpace(_ flags: Flags) {
        guard flags.extended else { return }
        while let byte = peek() {
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                advance()
            } else if byte == UInt8(ascii: "#") {
                while let b = peek(), b != 0x0A { advance(); _ = b }
            } else {
                return
            }
        }
    }

    private mutating func parseSequence(_ flags: inout Flags) -> PatternInfo {
        var items: [PatternInfo] = []
        while true {
            // Inside `\Q…\E` every character is literal: spaces, `|`, `)`, quantifiers.
            if !inQuote { skipExtendedSpace(flags) }
            guard let byte = peek(), inQuote || (byte != UInt8(ascii: "|") && byte != UInt8(ascii: ")")) else { break }
            guard var atom = inQuote ? parseQuotedCharacter(flags) : parseAtom(&flags) else { continue }
            while !inQuote {
                skipExtendedSpace(flags)
                guard let (min, max) = parseQuantifier() else { break }
                atom = atom.repeated(min: min, max: max)
            }
            items.append(atom)
        }
        return .concat(items)
    }

    /// Reads `* + ? {n} {n,} {n,m}` and a following lazy `?` or possessive `+`.
    private mutating func parseQuantifier() -> (Int, Int?)? {
        guard let byte = peek() else { return nil }
        var bounds: (Int, Int?)
        switch byte {
        case UInt8(ascii: "*"): bounds = (0, nil); advance()
        case UInt8(ascii: "+"): bounds = (1, nil); advance()
        case UInt8(ascii: "?"): bounds = (0, 1); advance()
        case UInt8(ascii: "{"):
            // PCRE2 10.43 and later also read `{,n}` and spaces inside the braces as a quantifier
            // (earlier versions, literal text): do not guess which one compiles the pattern.
            if let next = peek(1), next == UInt8(ascii: ",") || next == 0x20 { failed = true }
            var cursor = index + 1
            func number() -> Int? {
                let start = cursor
                while cursor < pattern.count, (0x30...0x39).contains(pattern[cursor]) { cursor += 1 }
                return cursor > start ? Int(String(decoding: pattern[start..<cursor], as: UTF8.self)).map { Swift.min($0, 100_000) } : nil
            }
            guard let low = number() else { return nil }
            var high: Int? = low
            if cursor < pattern.count, pattern[cursor] == UInt8(ascii: ",") {
                cursor += 1
                high = number()
            }
            guard cursor < pattern.count, pattern[cursor] == UInt8(ascii: "}") else { return nil }
            advance(cursor + 1 - index)
            bounds = (low, high)
        default:
            return nil
        }
        if let next = peek(), next == UInt8(ascii: "?") || next == UInt8(ascii: "+") { advance() }
        return bounds
    }

    private mutating func parseAtom(_ flags: inout Flags) -> PatternInfo? {
        let byte = pattern[index]
        switch byte {
        case UInt8(ascii: "("):
            return parseGroup(&flags)
        case UInt8(ascii: "["):
            return parseClass(flags)
        case UInt8(ascii: "\\"):
            // `\Q` starts a quote whose characters are atoms of their own (a quantifier after
            // `\E` repeats only the last); `\E` alone is ignored. Neither takes a quantifier.
            if peek(1) == UInt8(ascii: "Q") {
                advance(2)
                inQuote = true
                endQuoteIfClosing()
                return nil
            }
            if peek(1) == UInt8(ascii: "E") {
                advance(2)
                return nil
            }
            return parseEscape(flags)
        case UInt8(ascii: "."):
            advance()
            if flags.dotAll { mentionsLineBreak = true }
            return .character(lineFeed: flags.dotAll)
        case UInt8(ascii: "^"), UInt8(ascii: "$"):
            hasAssertions = true
            if byte == UInt8(ascii: "$") { looksOneCharacterAhead = true }
            advance()
            return .empty
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            failed = true // a quantifier with nothing to repeat: PCRE2 reports it
            advance()
            return .unknown(lineFeed: true)
        case 0x0A:
            noteLineFeed(consuming: 1)
            return PatternInfo(exact: [[0x0A], [0x0D, 0x0A]], required: nil, canMatchLineFeed: true)
        default:
            if byte == 0x0D { mentionsLineBreak = true }
            let scalar = decodeScalar()
            return literalInfo(scalar, flags)
        }
    }

    /// Copies one UTF-8 scalar and returns it.
    private mutating func decodeScalar() -> Unicode.Scalar {
        let lead = pattern[index]
        let length = UTF8Bytes.scalarLength(lead: lead)
        let bytes = pattern[index..<Swift.min(index + length, pattern.count)]
        advance(length)
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    private func literalInfo(_ scalar: Unicode.Scalar, _ flags: Flags) -> PatternInfo {
        let bytes = Array(String(scalar).utf8).map(UInt16.init)
        guard flags.caseless, scalar.properties.changesWhenCaseMapped else { return .literal(bytes) }
        if scalar.isASCII {
            let lower = UInt8(scalar.value) | 0x20
            // k and s also match the Kelvin sign and long s under Unicode case folding.
            if lower == UInt8(ascii: "k") || lower == UInt8(ascii: "s") { return .character(lineFeed: false) }
            return .literal([PrefilterLiteral.caselessFlag | UInt16(lower)])
        }
        return .character(lineFeed: false)
    }

    private mutating func skipPast(_ terminator: UInt8) {
        while let byte = peek() {
            advance()
            if byte == UInt8(ascii: "\\") { advance(); continue }
            if byte == terminator { return }
        }
    }

    /// Reads a group; returns `nil` for items that match nothing and take no quantifier (comments,
    /// option settings).
    private mutating func parseGroup(_ flags: inout Flags) -> PatternInfo? {
        advance() // (
        var inner = flags
        var isLookaround = false
        var isLookbehind = false
        if peek() == UInt8(ascii: "*") {
            failed = true // (*VERB) or (*positive lookahead:...) forms
            skipPast(UInt8(ascii: ")"))
            return .unknown(lineFeed: true)
        }
        if peek() == UInt8(ascii: "?") {
            advance()
            guard let kind = peek() else { failed = true; return .unknown(lineFeed: true) }
            switch kind {
            case UInt8(ascii: "#"):
                skipPast(UInt8(ascii: ")"))
                return nil
            case UInt8(ascii: ":"), UInt8(ascii: ">"):
                advance()
            case UInt8(ascii: "|"):
                failed = true // branch reset renumbers groups
                advance()
            case UInt8(ascii: "="), UInt8(ascii: "!"):
                advance()
                isLookaround = true
            case UInt8(ascii: "<") where peek(1) == UInt8(ascii: "=") || peek(1) == UInt8(ascii: "!"):
                advance(2)
                isLookaround = true
                isLookbehind = true
            case UInt8(ascii: "<"), UInt8(ascii: "'"):
                skipPast(kind == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'"))
            case UInt8(ascii: "P") where peek(1) == UInt8(ascii: "<"):
                advance()
                skipPast(UInt8(ascii: ">"))
            case UInt8(ascii: "-") where peek(1).map({ (0x30...0x39).contains($0) }) ?? false:
                // A relative subroutine call, (?-1).
                failed = true
                skipPast(UInt8(ascii: ")"))
                return .unknown(lineFeed: true)
            case UInt8(ascii: "P"), UInt8(ascii: "R"), UInt8(ascii: "&"), UInt8(ascii: "C"), UInt8(ascii: "+"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Recursion, subroutine calls, named back references and callouts.
                failed = true
                skipPast(UInt8(ascii: ")"))
                return .unknown(lineFeed: true)
            case UInt8(ascii: "("):
                failed = true // conditional group
                skipPast(UInt8(ascii: ")"))
            default:
                // Option settings: (?imsx-imsx) or (?imsx-imsx:...), and (?^...).
                var enable = true
                var setting = inner
                while let letter = peek(), letter != UInt8(ascii: ")"), letter != UInt8(ascii: ":") {
                    switch letter {
                    case UInt8(ascii: "-"): enable = false
                    case UInt8(ascii: "^"): setting = Flags(caseless: false)
                    case UInt8(ascii: "i"): setting.caseless = enable
                    case UInt8(ascii: "s"): setting.dotAll = enable
                    case UInt8(ascii: "x"):
                        if peek(1) == UInt8(ascii: "x") { advance(); setting.extendedMore = enable }
                        setting.extended = enable
                    case UInt8(ascii: "m"), UInt8(ascii: "n"), UInt8(ascii: "U"), UInt8(ascii: "J"):
                        if letter != UInt8(ascii: "m") { failed = true } // changes group numbering or greed
                    default:
                        failed = true
                    }
                    advance()
                }
                if peek() == UInt8(ascii: ")") {
                    advance()
                    flags = setting // applies to the rest of the enclosing group
                    return nil
                }
                advance() // :
                inner = setting
            }
        }
        if isLookaround {
            hasSubjectAssertions = true
            hasAssertions = true
            if !isLookbehind { hasLookahead = true }
        }
        // Past PCRE2's own limit (its default `parens_nest_limit`) PCRE2 refuses the pattern
        // ("parentheses are too deeply nested"): read no deeper, so that hostile nesting cannot
        // exhaust the stack here first; the rest is PCRE2's to report.
        guard groupDepth < PatternParser.nestingLimit else {
            failed = true
            index = pattern.count
            return .unknown(lineFeed: true)
        }
        if isLookbehind { lookbehindDepth += 1 }
        groupDepth += 1
        let info = parseAlternation(&inner)
        groupDepth -= 1
        if isLookbehind { lookbehindDepth -= 1 }
        if peek() == UInt8(ascii: ")") { advance() } else { failed = true }
        return isLookaround ? .empty : info
    }

    private mutating func parseClass(_ flags: Flags) -> PatternInfo {
        advance() // [
        var negated = false
        if peek() == UInt8(ascii: "^") { advance(); negated = true }
        var members: [Unicode.Scalar] = []
        var simple = true
        var lineFeed = false
        var first = true
        while let byte = peek() {
            if byte == UInt8(ascii: "]") && !first { advance(); break }
            first = false
            if byte == UInt8(ascii: "[") && peek(1) == UInt8(ascii: ":") {
                simple = false
                lineFeed = true // [:space:], [:cntrl:], [:^alpha:] ...
                advance(2)
                skipPast(UInt8(ascii: "]"))
                continue
            }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = peek(1) else { advance(); failed = true; break }
                if escaped == UInt8(ascii: "Q") {
                    advance(2)
                    while !atEnd && !(peek() == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "E")) {
                        if peek() == 0x0A { lineFeed = true }
                        members.append(decodeScalar())
                    }
                    advance(2)
                    continue
                }
                if escaped == UInt8(ascii: "u") {
                    if let scalar = javaScriptEscape() {
                        members.append(scalar)
                        if scalar == "\n" || scalar == "\r" { lineFeed = true; mentionsLineBreak = true }
                    } else {
                        advance(2)
                        failed = true
                    }
                    continue
                }
                advance(2)
                if escaped == UInt8(ascii: "n") || escaped == UInt8(ascii: "r") || escaped == UInt8(ascii: "v")
                    || escaped == UInt8(ascii: "R") || escaped == UInt8(ascii: "W") {
                    mentionsLineBreak = true
                }
                switch escaped {
                case UInt8(ascii: "n"), UInt8(ascii: "s"), UInt8(ascii: "v"), UInt8(ascii: "W"), UInt8(ascii: "D"),
                     UInt8(ascii: "H"), UInt8(ascii: "V"), UInt8(ascii: "R"), UInt8(ascii: "p"), UInt8(ascii: "P"),
                     UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "0")...UInt8(ascii: "7"), UInt8(ascii: "c"),
                     UInt8(ascii: "N"), UInt8(ascii: "S"):
                    simple = false
                    lineFeed = true
                    if escaped == UInt8(ascii: "p") || escaped == UInt8(ascii: "P") || escaped == UInt8(ascii: "x")
                        || escaped == UInt8(ascii: "o") || escaped == UInt8(ascii: "N"), peek() == UInt8(ascii: "{") {
                        skipPast(UInt8(ascii: "}"))
                    }
                case UInt8(ascii: "d"), UInt8(ascii: "w"), UInt8(ascii: "h"), UInt8(ascii: "t"), UInt8(ascii: "r"),
                     UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "a"), UInt8(ascii: "b"):
                    simple = false
                default:
                    if escaped < 0x80 && !isASCIIAlphanumeric(escaped) {
                        members.append(Unicode.Scalar(escaped))
                    } else {
                        simple = false
                        lineFeed = true
                    }
                }
                continue
            }
            if byte == UInt8(ascii: "-") && !members.isEmpty && peek(1) != UInt8(ascii: "]") {
                // A range: conservative unless it stays within printable ASCII above the line feed.
                advance()
                simple = false
                if let low = members.last, low.value <= 0x0A { lineFeed = true }
                if let high = peek(), high == UInt8(ascii: "\\") || high >= 0x80 { lineFeed = true }
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                lineFeed = true
                mentionsLineBreak = true
            }
            members.append(decodeScalar())
        }
        if negated { return .character(lineFeed: true) }
        guard simple, !members.isEmpty, members.count <= 8 else { return .character(lineFeed: lineFeed) }
        return .alternation(members.map { literalInfo($0, flags) })
    }

    private func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private mutating func parseEscape(_ flags: Flags) -> PatternInfo {
        guard let escaped = peek(1) else {
            failed = true
            advance()
            return .unknown(lineFeed: true)
        }
        switch escaped {
        case UInt8(ascii: "n"):
            noteLineFeed(consuming: 2)
            return PatternInfo(exact: [[0x0A], [0x0D, 0x0A]], required: nil, canMatchLineFeed: true)
        case UInt8(ascii: "t"): advance(2); return .literal([0x09])
        case UInt8(ascii: "r"): mentionsLineBreak = true; advance(2); return .literal([0x0D])
        case UInt8(ascii: "f"): advance(2); return .literal([0x0C])
        case UInt8(ascii: "e"): advance(2); return .literal([0x1B])
        case UInt8(ascii: "a"): advance(2); return .literal([0x07])
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "K"):
            hasAssertions = true
            if escaped == UInt8(ascii: "K") {
                resetsMatchStart = true
                looksUnboundedBehind = true
            } else {
                looksOneCharacterAhead = true
            }
            advance(2)
            return .empty
        case UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "G"):
            hasAssertions = true
            hasSubjectAssertions = true
            if escaped == UInt8(ascii: "z") || escaped == UInt8(ascii: "Z") { looksOneCharacterAhead = true }
            advance(2)
            return .empty
        case UInt8(ascii: "d"), UInt8(ascii: "w"), UInt8(ascii: "h"), UInt8(ascii: "S"):
            advance(2)
            return .character(lineFeed: false)
        case UInt8(ascii: "D"), UInt8(ascii: "W"), UInt8(ascii: "H"), UInt8(ascii: "s"), UInt8(ascii: "v"),
             UInt8(ascii: "V"), UInt8(ascii: "R"), UInt8(ascii: "X"), UInt8(ascii: "C"):
            // VS Code's isMultilineRegexSource counts `\W` (it matches a line feed); `\v` and `\R`
            // are PCRE2's line-break classes.
            if escaped == UInt8(ascii: "v") || escaped == UInt8(ascii: "R") || escaped == UInt8(ascii: "W") { mentionsLineBreak = true }
            if escaped == UInt8(ascii: "X") { looksUnboundedBehind = true }
            advance(2)
            return escaped == UInt8(ascii: "X") ? .unknown(lineFeed: true) : .character(lineFeed: true) // \X: a cluster, unbounded
        case UInt8(ascii: "N"):
            advance(2)
            if peek() == UInt8(ascii: "{") { skipPast(UInt8(ascii: "}")); failed = true; return .unknown(lineFeed: true) }
            return .character(lineFeed: false)
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            advance(2)
            if peek() == UInt8(ascii: "{") { skipPast(UInt8(ascii: "}")) } else { advance() }
            return .character(lineFeed: true)
        case UInt8(ascii: "Q"), UInt8(ascii: "E"):
            preconditionFailure("\\Q and \\E are read by parseAtom")
        case UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "c"), UInt8(ascii: "0"):
            return parseCodePointEscape(flags)
        case UInt8(ascii: "u"):
            guard let scalar = javaScriptEscape() else {
                failed = true // PCRE2 reports `\u` without a code as unsupported
                advance(2)
                return .unknown(lineFeed: true)
            }
            if scalar == "\n" || scalar == "\r" { mentionsLineBreak = true }
            return literalInfo(scalar, flags)
        case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "g"), UInt8(ascii: "k"):
            // Back references and subroutine calls.
            advance(2)
            if let open = peek(), open == UInt8(ascii: "{") || open == UInt8(ascii: "<") || open == UInt8(ascii: "'") {
                skipPast(open == UInt8(ascii: "{") ? UInt8(ascii: "}") : open == UInt8(ascii: "<") ? UInt8(ascii: ">") : open)
            } else {
                while let digit = peek(), (0x30...0x39).contains(digit) || digit == UInt8(ascii: "+") || digit == UInt8(ascii: "-") { advance() }
            }
            return .unknown(lineFeed: true)
        default:
            if escaped < 0x80 && isASCIIAlphanumeric(escaped) {
                failed = true // an escape this analysis does not know
                advance(2)
                return .unknown(lineFeed: true)
            }
            if escaped == 0x0A {
                // An escaped raw line feed is a line feed like any other (rewritten with its `\\`).
                noteLineFeed(consuming: 2)
                return PatternInfo(exact: [[0x0A], [0x0D, 0x0A]], required: nil, canMatchLineFeed: true)
            }
            if escaped == 0x0D { mentionsLineBreak = true }
            advance() // the backslash; the escaped character is literal
            return literalInfo(decodeScalar(), flags)
        }
    }

    /// One character of a `\Q…\E` quote, literal; a `\E` right after it ends the quote, so that
    /// a quantifier that follows applies to this character.
    private mutating func parseQuotedCharacter(_ flags: Flags) -> PatternInfo? {
        if peek() == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "E") {
            advance(2)
            inQuote = false
            return nil
        }
        let info: PatternInfo
        if peek() == 0x0A {
            noteLineFeed(consuming: 1, quoted: true)
            info = PatternInfo(exact: [[0x0A], [0x0D, 0x0A]], required: nil, canMatchLineFeed: true)
        } else {
            info = literalInfo(decodeScalar(), flags)
        }
        endQuoteIfClosing()
        return info
    }

    private mutating func endQuoteIfClosing() {
        if inQuote && peek() == UInt8(ascii: "\\") && peek(1) == UInt8(ascii: "E") {
            advance(2)
            inQuote = false
        }
    }

    /// JavaScript's `\uHHHH` (two for a surrogate pair) or `\u{H…}` at the current `\`: reads it,
    /// notes its rewrite to `\x{…}` and returns the character; `nil` (nothing read) when it is
    /// not one.
    private mutating func javaScriptEscape() -> Unicode.Scalar? {
        func hex(at start: Int, count: Int) -> UInt32? {
            guard start + count <= pattern.count else { return nil }
            return UInt32(String(decoding: pattern[start..<(start + count)], as: UTF8.self), radix: 16)
        }
        let start = index
        var end: Int
        var value: UInt32
        if peek(2) == UInt8(ascii: "{") {
            guard let close = pattern[(index + 3)...].firstIndex(of: UInt8(ascii: "}")), close > index + 3, close - index - 3 <= 6,
                  let code = hex(at: index + 3, count: close - index - 3) else { return nil }
            value = code
            end = close + 1
        } else {
            guard let code = hex(at: index + 2, count: 4) else { return nil }
            value = code
            end = index + 6
            // A surrogate pair written as two escapes, as JavaScript strings do.
            if (0xD800...0xDBFF).contains(code), end + 6 <= pattern.count, pattern[end] == UInt8(ascii: "\\"),
               pattern[end + 1] == UInt8(ascii: "u"), let low = hex(at: end + 2, count: 4), (0xDC00...0xDFFF).contains(low) {
                value = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                end += 6
            }
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        rewrites.append(.codePoint(start..<end, scalar))
        index = end
        return scalar
    }

    /// `\xhh`, `\x{h...}`, `\o{...}`, `\0oo`, `\cX`: one character given by its code.
    private mutating func parseCodePointEscape(_ flags: Flags) -> PatternInfo {
        let kind = pattern[index + 1]
        advance(2)
        var value: UInt32?
        func digits(radix: Int, max: Int, until terminator: UInt8? = nil) -> UInt32? {
            var text = ""
            while let byte = peek(), text.count < max, byte != terminator,
                  let digit = Int(String(UnicodeScalar(byte)), radix: radix) {
                _ = digit
                text.append(Character(UnicodeScalar(byte)))
                advance()
            }
            if let terminator {
                guard peek() == terminator else { return nil }
                advance()
            }
            return UInt32(text, radix: radix) ?? (terminator == nil ? 0 : nil)
        }
        switch kind {
        case UInt8(ascii: "x"):
            if peek() == UInt8(ascii: "{") { advance(); value = digits(radix: 16, max: 8, until: UInt8(ascii: "}")) } else { value = digits(radix: 16, max: 2) }
        case UInt8(ascii: "o"):
            if peek() == UInt8(ascii: "{") { advance(); value = digits(radix: 8, max: 11, until: UInt8(ascii: "}")) } else { failed = true }
        case UInt8(ascii: "0"):
            value = digits(radix: 8, max: 2)
        default: // \cX
            if let letter = peek() { advance(); value = UInt32(letter & 0xDF) ^ 0x40 } else { failed = true }
        }
        guard let value, let scalar = Unicode.Scalar(value) else {
            failed = true
            return .unknown(lineFeed: true)
        }
        if scalar == "\n" || scalar == "\r" { mentionsLineBreak = true }
        return literalInfo(scalar, flags) // a line feed written as a code (\x0a) stays exact
    }
}
