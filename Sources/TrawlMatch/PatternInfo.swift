import TrawlNGram
/// A pattern's language as far as the analysis tracks it.
struct PatternInfo {
    typealias Literals = Set<[UInt16]>
    /// Every string the sub-pattern can match, when that set is small.
    var exact: Literals?
    /// Strings of which every match contains one, when known.
    var required: Literals?
    var canMatchLineFeed: Bool
    /// What every match contains, as an AND/OR tree (kept beside ``exact`` and ``required``,
    /// which stay one flat set for the prefilter).
    var query: LiteralQuery
    /// The most bytes a match can take, or `nil` when unbounded (or not known).
    var maxLength: Int?

    init(exact: Literals?, required: Literals?, canMatchLineFeed: Bool, query: LiteralQuery? = nil, maxLength: Int?? = nil) {
        self.exact = exact
        self.required = required
        self.canMatchLineFeed = canMatchLineFeed
        self.query = query ?? exact.map(LiteralQuery.anyOf) ?? .all
        // Exact strings are as long as their longest (a caseless ASCII unit is one byte; a line feed
        // can stand for a CRLF in the text matched across lines: two).
        self.maxLength = maxLength ?? exact.map { $0.map { $0.count + $0.filter { $0 == 0x0A }.count }.max() ?? 0 }
    }

    /// Lengths beyond any text are as good as unbounded (and must not overflow).
    static func sum(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow || value > 1 << 40 ? nil : value
    }

    static func product(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || value > 1 << 40 ? nil : value
    }

    /// One character of an unknown set (a class, `.`, `\w`...): at most 4 bytes, or a CRLF.
    static func character(lineFeed: Bool) -> PatternInfo {
        PatternInfo(exact: nil, required: nil, canMatchLineFeed: lineFeed, maxLength: 4)
    }

    static let maxSetSize = 32
    static let maxLiteralLength = 64

    static let empty = PatternInfo(exact: [[]], required: nil, canMatchLineFeed: false)
    static func unknown(lineFeed: Bool) -> PatternInfo { PatternInfo(exact: nil, required: nil, canMatchLineFeed: lineFeed) }
    static func literal(_ units: [UInt16]) -> PatternInfo { PatternInfo(exact: [units], required: nil, canMatchLineFeed: units.contains(0x0A)) }

    /// The better of two required sets (the more selective).
    static func best(_ a: Literals?, _ b: Literals?) -> Literals? {
        func score(_ set: Literals) -> Int {
            set.contains { $0.isEmpty } ? 0 : set.map { PrefilterLiteral(units: $0).score }.min() ?? 0
        }
        guard let a, score(a) > 0 else { return b.flatMap { score($0) > 0 ? $0 : nil } }
        guard let b, score(b) > 0 else { return a }
        return score(a) >= score(b) ? a : b
    }

    /// Concatenation keeps the exact set of the current run of exact items; a non-exact item ends
    /// the run, which then competes to be the required set.
    static func concat(_ items: [PatternInfo]) -> PatternInfo {
        var run: Literals? = [[]]
        var allExact = true
        var required: Literals?
        var lineFeed = false
        // Each finished run of exact items, and each other item, is one conjunct of the query.
        var conjuncts: [LiteralQuery] = []
        var length: Int? = 0
        for item in items {
            lineFeed = lineFeed || item.canMatchLineFeed
            length = length.flatMap { total in item.maxLength.flatMap { PatternInfo.sum(total, $0) } }
            guard let exact = item.exact else {
                allExact = false
                required = best(required, best(run, item.required))
                conjuncts.append(LiteralQuery.anyOf(run ?? [[]]))
                conjuncts.append(item.query)
                run = [[]]
                continue
            }
            let current = run ?? [[]]
            if current.count * exact.count <= maxSetSize {
                let joined = Set(current.flatMap { left in exact.map { left + $0 } })
                if !joined.contains(where: { $0.count > maxLiteralLength }) {
                    run = joined
                    continue
                }
            }
            // Too many or too long: keep the best so far and start a new run.
            allExact = false
            required = best(required, current)
            conjuncts.append(LiteralQuery.anyOf(current))
            run = exact
        }
        conjuncts.append(LiteralQuery.anyOf(run ?? [[]]))
        let query = LiteralQuery.conjunction(conjuncts)
        if allExact { return PatternInfo(exact: run, required: required, canMatchLineFeed: lineFeed, query: query, maxLength: length) }
        return PatternInfo(exact: nil, required: best(required, run), canMatchLineFeed: lineFeed, query: query, maxLength: length)
    }

    static func alternation(_ items: [PatternInfo]) -> PatternInfo {
        guard items.count > 1 else { return items.first ?? .empty }
        var exact: Literals? = []
        var required: Literals? = []
        for item in items {
            if let e = item.exact, let current = exact, current.count + e.count <= maxSetSize {
                exact = current.union(e)
            } else {
                exact = nil
            }
            if let r = best(item.required, item.exact), let current = required, current.count + r.count <= maxSetSize {
                required = current.union(r)
            } else {
                required = nil
            }
        }
        let lengths = items.map { $0.maxLength }
        return PatternInfo(exact: exact, required: required, canMatchLineFeed: items.contains { $0.canMatchLineFeed },
                           query: LiteralQuery.disjunction(items.map { $0.query }),
                           maxLength: .some(lengths.contains { $0 == nil } ? nil : lengths.compactMap { $0 }.max()))
    }

    func repeated(min: Int, max: Int?) -> PatternInfo {
        var result = repeatedIgnoringLength(min: min, max: max)
        result.maxLength = maxLength.flatMap { length in length == 0 ? 0 : max.flatMap { PatternInfo.product(length, $0) } }
        return result
    }

    private func repeatedIgnoringLength(min: Int, max: Int?) -> PatternInfo {
        if min == 0 {
            let exactOptional: Literals? = max == 1 ? exact.map { $0.union([[]]) } : nil
            return PatternInfo(exact: exactOptional, required: nil, canMatchLineFeed: canMatchLineFeed, query: .all)
        }
        if min == 1 && max == 1 { return self }
        var exactPower: Literals?
        if let exact, max == min, min <= 4 {
            exactPower = PatternInfo.concat(Array(repeating: PatternInfo(exact: exact, required: nil, canMatchLineFeed: false), count: min)).exact
        }
        return PatternInfo(exact: exactPower, required: PatternInfo.best(required, exact), canMatchLineFeed: canMatchLineFeed,
                           query: exactPower.map(LiteralQuery.anyOf) ?? query)
    }
}
