/// The range is one PCRE2 subject: for patterns that ask for line breaks, or that give the same
/// matches on lines and on the whole text.
struct WholeTextStrategy: SubjectStrategy {
    let reported: Range<Int>

    mutating func next(in window: RegexWindow) throws(MatchError) -> Match? {
        try window.nextMatch(startLimit: reported.upperBound)
    }
}
