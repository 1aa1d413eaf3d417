/// A pattern as a search over files takes it, with the options that shape it (`trawl find`'s
/// `-F`, `-i`, `-S`, `-w`, `-U`): lines as grep and ripgrep count them.
public struct FindQuery: Hashable, Sendable {
    /// The text typed.
    public var pattern: String
    /// Literal text or a PCRE2 regular expression.
    public var syntax = MatchOptions.Syntax.regex
    /// How letter case is matched (`-i`, `-S`).
    public var caseMode = CaseMode.sensitive
    /// Whole words only.
    public var wholeWord = false
    /// Whether a match may span lines (`-U`).
    public var multiline = false

    /// A case-sensitive regex query.
    public init(pattern: String, syntax: MatchOptions.Syntax = .regex) {
        self.pattern = pattern
        self.syntax = syntax
    }

    /// The find options this query means.
    public var findOptions: MatchOptions {
        var options = MatchOptions(syntax: syntax, matchCase: caseMode.matchesCase(of: pattern, syntax: syntax), wholeWord: wholeWord)
        options.matchesAcrossLines = multiline
        // Lines as grep and ripgrep count them: a final line break ends the text, no empty line follows.
        options.finalLineBreakEndsText = true
        return options
    }

    /// The matcher of this query.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` for a bad regex or an empty pattern.
    public func makeMatcher() throws(MatchError) -> any Matcher {
        // ripgrep prints every line for an empty pattern; an editor finds nothing. Trawl says so.
        guard !pattern.isEmpty else {
            throw .invalidPattern(message: "the pattern is empty (to match every line, use '^')", offset: 0)
        }
        return try findOptions.makeMatcher(for: pattern)
    }
}
