import CPCRE2
import TrawlText

/// PCRE2 run directly on one contiguous buffer, with Trawl's compile options and editor rewrites
/// but no prefilter, no windows and no partial matching: the reference Trawl's search is tested
/// (differentially) and benchmarked against.
public final class PCRE2Reference {
    private let state: RegexMatchState

    /// Compiles `pattern` exactly as ``RegexMatcher`` does.
    public init(pattern: String, caseless: Bool, limits: RegexLimits = .default) throws(MatchError) {
        let analysis = PatternAnalysis(pattern: pattern, caseless: caseless)
        state = RegexMatchState(regex: try CompiledRegex(pattern: analysis.compiledPattern, caseless: caseless), limits: limits)
    }

    /// Whether PCRE2 JIT-compiled the pattern.
    public var isJITCompiled: Bool { state.regex.isJITCompiled }

    /// Calls `body` with each match in `buffer` (valid UTF-8), using the classic find-all loop:
    /// after an empty match, retry at the same offset with `PCRE2_NOTEMPTY_ATSTART`.
    public func forEachMatch(in buffer: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Void) throws(MatchError) {
        var position = 0
        var notEmpty = false
        while position <= buffer.count {
            let options = notEmpty ? UInt32(PCRE2_NOTEMPTY_ATSTART) : 0
            guard case .match(let start, let end) = try state.match(buffer, from: position, options: options, subjectOffset: 0) else { return }
            body(Match(range: start..<end, groups: state.groups(shiftedBy: 0)))
            notEmpty = start == end
            position = end
        }
    }

    /// Every match in `buffer`.
    public func matches(in buffer: UnsafeBufferPointer<UInt8>) throws(MatchError) -> [Match] {
        var result: [Match] = []
        try forEachMatch(in: buffer) { result.append($0) }
        return result
    }

    /// Every match when each line (without its LF or CRLF) is matched on its own.
    public func matchesLineByLine(in buffer: UnsafeBufferPointer<UInt8>) throws(MatchError) -> [Match] {
        var result: [Match] = []
        var start = 0
        while start <= buffer.count {
            let lineFeed = buffer[start...].firstIndex(of: 0x0A) ?? buffer.count
            let end = LineBreaks.contentEnd(lineStart: start, lineFeed: lineFeed, textEnd: buffer.count) { buffer[$0] }
            try forEachMatch(in: UnsafeBufferPointer(rebasing: buffer[start..<end])) { match in
                result.append(Match(range: (match.range.lowerBound + start)..<(match.range.upperBound + start),
                                    groups: match.groups.map { $0.map { ($0.lowerBound + start)..<($0.upperBound + start) } }))
            }
            start = lineFeed + 1
        }
        return result
    }
}
