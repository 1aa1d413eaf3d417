import CPCRE2
import TrawlMatch

/// The reference: PCRE2 called directly on one contiguous buffer, with the same compile options
/// and the classic find-all loop (after an empty match, retry at the same offset with
/// PCRE2_NOTEMPTY_ATSTART). No windows, no prefilter, no partial matching.
struct ContiguousOracle {
    let code: OpaquePointer

    init(pattern: String, caseless: Bool) throws {
        let compiled = PatternAnalysis(pattern: pattern, caseless: caseless).compiledPattern
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_MULTILINE | PCRE2_ALT_CIRCUMFLEX)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        let context = pcre2_compile_context_create_8(nil)
        defer { pcre2_compile_context_free_8(context) }
        pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_ANYCRLF))
        var error: Int32 = 0
        var offset = 0
        let result = compiled.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UInt8.self, capacity: buffer.count) {
                pcre2_compile_8($0, buffer.count - 1, options, &error, &offset, context)
            }
        }
        guard let result else { throw OracleError.compile(error) }
        code = result
    }

    enum OracleError: Error { case compile(Int32), match(Int32) }

    /// Matches each line (without its LF or CRLF) as its own subject, shifting offsets back.
    func matchesLineByLine(in bytes: [UInt8]) throws -> [Match] {
        var result: [Match] = []
        var start = 0
        while start <= bytes.count {
            let lineFeed = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var end = lineFeed
            if lineFeed < bytes.count && end > start && bytes[end - 1] == 0x0D { end -= 1 }
            for match in try matches(in: Array(bytes[start..<end])) {
                result.append(Match(range: (match.range.lowerBound + start)..<(match.range.upperBound + start),
                                    groups: match.groups.map { $0.map { ($0.lowerBound + start)..<($0.upperBound + start) } }))
            }
            start = lineFeed + 1
        }
        return result
    }

    func matches(in bytes: [UInt8]) throws -> [Match] {
        let data = pcre2_match_data_create_from_pattern_8(code, nil)
        defer { pcre2_match_data_free_8(data) }
        var captures: UInt32 = 0
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        var result: [Match] = []
        var position = 0
        var notEmpty = false
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            while position <= buffer.count {
                let rc = pcre2_match_8(code, base, buffer.count, position, notEmpty ? UInt32(PCRE2_NOTEMPTY_ATSTART) : 0, data, nil)
                if rc == PCRE2_ERROR_NOMATCH { break }
                guard rc >= 0 else { throw OracleError.match(rc) }
                let ovector = pcre2_get_ovector_pointer_8(data)!
                let groups: [Range<Int>?] = captures == 0 ? [] : (1...Int(captures)).map { group in
                    ovector[2 * group] == ~Int(0) ? nil : ovector[2 * group]..<ovector[2 * group + 1]
                }
                result.append(Match(range: ovector[0]..<ovector[1], groups: groups))
                notEmpty = ovector[0] == ovector[1]
                position = ovector[1]
            }
        }
        return result
    }
}
