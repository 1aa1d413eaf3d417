extension MatchOptions {
    /// The matcher of `pattern` under these options: the one factory the navigator, the tree
    /// search and the command share.
    ///
    /// A regex without a metacharacter is its own text: it is found as a literal, as `.literal`
    /// syntax finds it, without parsing and compiling it.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` for a bad regex.
    public func makeMatcher(for pattern: String) throws(MatchError) -> any Matcher {
        if syntax == .literal || MatchOptions.isPlainText(pattern) {
            var literal = self
            literal.syntax = .literal
            return try LiteralMatcher(pattern, options: literal)
        }
        return try RegexMatcher(pattern, options: self)
    }

    /// Whether a regex pattern matches exactly its own text: it has no character that PCRE2's syntax
    /// gives a meaning (`\ ^ $ . | ? * + ( ) [ ] { }`), and no line break (which a literal would also
    /// match as a CRLF).
    public static func isPlainText(_ pattern: String) -> Bool {
        !pattern.isEmpty && pattern.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "|"),
                 UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), 0x0A, 0x0D: false
            default: true
            }
        }
    }
}
