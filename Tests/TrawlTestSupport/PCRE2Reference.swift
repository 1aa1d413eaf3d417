import CPCRE2
import TrawlMatch
import TrawlText

/// PCRE2 run directly on one contiguous buffer, with Trawl's compile options and its line-feed
/// rewrite but none of its search machinery (no prefilter, no windows, no partial matching, no
/// scratch pool): the oracle Trawl's search is tested against and benchmarked beside. Written
/// against the C API on its own, so a bug in Trawl's engine cannot hide in the oracle too.
public final class PCRE2Reference {
    private let code: OpaquePointer
    private let matchData: OpaquePointer
    private let captureCount: Int

    /// Compiles `pattern` with the options ``RegexMatcher`` uses (UTF, UCP, multiline `^`/`$`,
    /// CRLF-aware line ends, caseless when asked) and JIT-compiles it.
    public init(pattern: String, caseless: Bool) throws(MatchError) {
        let rewritten = Array(PatternAnalysis(pattern: pattern, caseless: caseless).compiledPattern.utf8)
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_MULTILINE | PCRE2_ALT_CIRCUMFLEX)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANYCRLF))
        var errorCode: Int32 = 0, errorOffset = 0
        guard let compiled = rewritten.withUnsafeBufferPointer({ buffer in
            pcre2_compile_8(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count, options, &errorCode, &errorOffset, context)
        }) else {
            throw .invalidPattern(message: "PCRE2 error \(errorCode)", offset: errorOffset)
        }
        code = compiled
        pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
        matchData = pcre2_match_data_create_from_pattern_8(compiled, nil)
        var captures: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        captureCount = Int(captures)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_code_free_8(code)
    }

    /// Calls `body` with each match in `buffer` (valid UTF-8), using the classic find-all loop
    /// with editor semantics: after a match, retry at its end with `PCRE2_NOTEMPTY_ATSTART`, so
    /// no empty match is reported where a match ended.
    public func forEachMatch(in buffer: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Void) throws(MatchError) {
        var position = 0
        var notEmpty = false
        let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        while position <= buffer.count {
            let options = UInt32(PCRE2_NO_UTF_CHECK) | (notEmpty ? UInt32(PCRE2_NOTEMPTY_ATSTART) : 0)
            let result = pcre2_match_8(code, base, buffer.count, position, options, matchData, nil)
            if result == PCRE2_ERROR_NOMATCH { return }
            guard result >= 0 else { throw .engine(message: "PCRE2 error \(result)") }
            let ovector = pcre2_get_ovector_pointer_8(matchData)!
            let unset = ~Int(0)
            let groups: [Range<Int>?] = captureCount == 0 ? [] : (1...captureCount).map { group in
                ovector[2 * group] == unset ? nil : ovector[2 * group]..<ovector[2 * group + 1]
            }
            let start = ovector[0], end = ovector[1]
            body(Match(range: start..<end, groups: groups))
            notEmpty = true // no empty match where a match ended (Trawl's rule, as VS Code's)
            position = end
        }
    }

    /// Every match in `buffer` as a whole, on its LF view (each CRLF seen as LF, as Trawl and
    /// VS Code match patterns across lines); a boundary at such an LF is the CRLF's start.
    public func matches(in buffer: UnsafeBufferPointer<UInt8>) throws(MatchError) -> [Match] {
        var view: [UInt8] = []
        view.reserveCapacity(buffer.count)
        var textOffset: [Int] = [] // for each view offset (and the end), the text offset
        var index = 0
        while index < buffer.count {
            if buffer[index] == 0x0D && index + 1 < buffer.count && buffer[index + 1] == 0x0A {
                textOffset.append(index)
                view.append(0x0A)
                index += 2
            } else {
                textOffset.append(index)
                view.append(buffer[index])
                index += 1
            }
        }
        textOffset.append(buffer.count)
        var result: [Match] = []
        try view.withUnsafeBufferPointer { viewBuffer throws(MatchError) in
            try forEachMatch(in: viewBuffer) { match in
                // The text offset of each view offset: at an LF that was a CRLF, the CRLF's start.
                func map(_ offset: Int) -> Int { textOffset[offset] }
                result.append(Match(range: map(match.range.lowerBound)..<map(match.range.upperBound),
                                    groups: match.groups.map { $0.map { map($0.lowerBound)..<map($0.upperBound) } }))
            }
        }
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
