/// How far from its own bytes a match depends on the text: what an edit can change.
///
/// A match found before an edit may change (appear, vanish, grow or shrink) only if the edit
/// touches the match widened by ``lookbehind`` bytes before it and ``lookahead`` bytes after it
/// (touching includes an edit right at either end: `a+` grows when an `a` is typed after it). The
/// find navigator re-matches only that neighbourhood of an edit.
public struct MatchLocality: Hashable, Sendable {
    /// Whether a match and everything it depends on lie within one line (its content and its line
    /// break): then an edit changes only matches on the lines it touches.
    public var isLineBounded: Bool
    /// How many bytes before a match's start decide it (lookbehind, `\b`, `^`, whole word); `nil`
    /// when unbounded.
    public var lookbehind: Int?
    /// How many bytes after a match's end decide it (lookahead, `\b`, `$`, whole word); `nil` when
    /// unbounded.
    public var lookahead: Int?
    /// The most bytes a match can take; `nil` when unbounded. With ``lookahead``, how far an
    /// attempt that starts at some position can read: what bounds re-matching before an edit.
    public var maxMatchLength: Int?

    /// A locality with these bounds (nil: unbounded).
    public init(isLineBounded: Bool, lookbehind: Int?, lookahead: Int?, maxMatchLength: Int? = nil) {
        self.isLineBounded = isLineBounded
        self.lookbehind = lookbehind
        self.lookahead = lookahead
        self.maxMatchLength = maxMatchLength
    }

    /// The locality with a whole-word check added: one scalar (up to 4 bytes) on each side.
    func checkingWholeWords(_ wholeWord: Bool) -> MatchLocality {
        guard wholeWord else { return self }
        return MatchLocality(isLineBounded: isLineBounded, lookbehind: lookbehind.map { max($0, 4) },
                             lookahead: lookahead.map { max($0, 4) }, maxMatchLength: maxMatchLength)
    }
}
