#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlMatch

/// How letter case is matched.
public enum CaseMode: Sendable {
    case sensitive
    case insensitive
    /// Insensitive unless the pattern has an uppercase letter (ripgrep's `-S`).
    case smart
}

/// The pattern and the options that shape it (`-F`, `-i`, `-S`, `-w`, `-U`).
public struct PatternOptions: Sendable {
    public var pattern: String
    public var fixedStrings = false
    public var caseMode = CaseMode.sensitive
    public var wholeWord = false
    public var multiline = false

    public init(pattern: String) { self.pattern = pattern }

    /// The find options these flags mean.
    public var findOptions: FindOptions {
        var options = FindOptions(syntax: fixedStrings ? .literal : .regex, wholeWord: wholeWord)
        switch caseMode {
        case .sensitive: options.matchCase = true
        case .insensitive: options.matchCase = false
        case .smart: options.matchCase = PatternOptions.hasUppercase(pattern, literal: fixedStrings)
        }
        options.matchesAcrossLines = multiline
        return options
    }

    /// Whether a pattern has an uppercase letter outside escapes (as ripgrep's smart case reads it).
    static func hasUppercase(_ pattern: String, literal: Bool) -> Bool {
        var escaped = false
        for character in pattern {
            if !literal && !escaped && character == "\\" {
                escaped = true
                continue
            }
            if !escaped && character.isUppercase { return true }
            escaped = false
        }
        return false
    }

    /// Builds the matcher.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` for a bad regex.
    public func makeMatcher() throws(MatchError) -> any Matcher {
        fixedStrings ? LiteralMatcher(pattern, options: findOptions) : try RegexMatcher(pattern, options: findOptions)
    }
}

/// What `trawl find` prints.
public enum FindMode: Sendable, Equatable {
    /// Matching lines (with context lines when asked).
    case lines
    /// The number of matching lines per file (`-c`).
    case countLines
    /// The number of matches per file (`--count-matches`).
    case countMatches
    /// The files with a match (`-l`).
    case filesWithMatches
    /// ripgrep's JSON Lines format (`--json`).
    case json
}

/// Output settings for `trawl find`.
public struct FindSettings: Sendable {
    public var mode = FindMode.lines
    public var lineNumbers = false
    public var withFilename = true
    /// Group matches under a file heading (on a terminal) instead of prefixing each line.
    public var heading = false
    public var style = Style(enabled: false)
    public var before = 0
    public var after = 0

    public init() {}
}

/// The result of searching one file.
struct FileReport: Sendable {
    var output: [UInt8] = []
    var matches = 0
    var matchedLines = 0
    var bytes = 0
    /// An error to report on stderr (and to make the run exit 2).
    var error: String?
    /// A note to report on stderr that is not an error.
    var note: String?
}

extension FileReport {
    mutating func write(_ string: String) { output.append(contentsOf: string.utf8) }
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { output.append(contentsOf: bytes) }
}

/// Searches one file's text and renders the output of `settings.mode`.
func searchText(_ text: ContiguousText, display: String, matcher: any Matcher, settings: FindSettings) throws(MatchError) -> FileReport {
    var report = FileReport()
    report.bytes = text.utf8Count
    let outcome: Result<Void, MatchError> = text.withBytes { bytes in
        Result { () throws(MatchError) in
            var lines = LineLocator(bytes)
            var cursor = matcher.cursor(over: text)
            let style = settings.style
            switch settings.mode {
            case .filesWithMatches:
                if try cursor.next() != nil {
                    report.matches = 1
                    report.write(style.path(display) + "\n")
                }
            case .countMatches, .countLines:
                var lastCountedLine = 0
                while let match = try cursor.next() {
                    report.matches += 1
                    guard settings.mode == .countLines else { continue }
                    let firstLine = lines.lineNumber(match.range.lowerBound)
                    let lastLine = lines.lineNumber(max(match.range.upperBound - 1, match.range.lowerBound))
                    report.matchedLines += max(0, lastLine - max(firstLine, lastCountedLine + 1) + 1)
                    lastCountedLine = max(lastCountedLine, lastLine)
                    // Further matches on a counted line do not change the count: skip them.
                    let lineEnd = lines.lineEnd(max(match.range.upperBound - 1, match.range.lowerBound))
                    if lineEnd > match.range.upperBound { cursor.skip(to: lineEnd) }
                }
                let count = settings.mode == .countLines ? report.matchedLines : report.matches
                if count > 0 {
                    report.write(settings.withFilename ? style.path(display) + ":" + String(count) + "\n" : String(count) + "\n")
                }
            case .lines, .json:
                try renderLines(&cursor, bytes: bytes, lines: &lines, display: display, settings: settings, report: &report)
            }
        }
    }
    try outcome.get()
    return report
}

/// Renders matching lines (grouping the matches of a line), context lines and separators, as
/// text or as JSON Lines.
private func renderLines(_ cursor: inout MatchCursor, bytes: UnsafeBufferPointer<UInt8>, lines: inout LineLocator,
                         display: String, settings: FindSettings, report: inout FileReport) throws(MatchError) {
    let style = settings.style
    let json = settings.mode == .json
    var printedUpTo = 0        // offset past the last printed line
    var printedAny = false
    var afterLimit = 0         // after-context may print up to here
    var pending = try cursor.next()
    var started = false

    func emitLine(_ start: Int, _ end: Int, isMatch: Bool, matches: [Match]) {
        let number = lines.lineNumber(start)
        if json {
            var submatches: [String] = []
            for match in matches {
                let lower = max(match.range.lowerBound, start), upper = min(match.range.upperBound, end)
                guard lower <= upper else { continue }
                submatches.append("{\"match\":{\"text\":\(jsonString(bytes[lower..<upper]))},\"start\":\(lower - start),\"end\":\(upper - start)}")
            }
            let type = isMatch ? "match" : "context"
            report.write("{\"type\":\"\(type)\",\"data\":{\"path\":{\"text\":\(jsonString(display))},\"lines\":{\"text\":\(jsonString(bytes[start..<end]))},\"line_number\":\(number),\"absolute_offset\":\(start),\"submatches\":[\(submatches.joined(separator: ","))]}}\n")
            return
        }
        var prefix = ""
        let separator = isMatch ? ":" : "-"
        if settings.withFilename && !settings.heading { prefix += style.path(display) + separator }
        if settings.lineNumbers { prefix += style.lineNumber(String(number)) + separator }
        report.write(prefix)
        let content = lines.content(start, end)
        var cursorOffset = start
        let contentEnd = start + content.count
        if style.enabled {
            for match in matches {
                let lower = max(match.range.lowerBound, cursorOffset), upper = min(match.range.upperBound, contentEnd)
                guard lower < upper else { continue }
                report.write(UnsafeBufferPointer(rebasing: bytes[cursorOffset..<lower]))
                report.write(style.match(String(decoding: bytes[lower..<upper], as: UTF8.self)))
                cursorOffset = upper
            }
        }
        report.write(UnsafeBufferPointer(rebasing: bytes[cursorOffset..<contentEnd]))
        report.write("\n")
    }

    func emitContext(from start: Int, to end: Int) {
        var offset = start
        while offset < end {
            let lineEnd = lines.lineEnd(offset)
            emitLine(offset, lineEnd, isMatch: false, matches: [])
            offset = lineEnd
        }
        printedUpTo = max(printedUpTo, end)
    }

    while let first = pending {
        // A block: the lines of one match, extended by every match that starts within them.
        let blockStart = lines.lineStart(first.range.lowerBound)
        var blockEnd = lines.lineEnd(max(first.range.upperBound - 1, first.range.lowerBound))
        var blockMatches = [first]
        pending = try cursor.next()
        while let next = pending, next.range.lowerBound < blockEnd {
            blockMatches.append(next)
            blockEnd = max(blockEnd, lines.lineEnd(max(next.range.upperBound - 1, next.range.lowerBound)))
            pending = try cursor.next()
        }
        if !started {
            started = true
            if json {
                report.write("{\"type\":\"begin\",\"data\":{\"path\":{\"text\":\(jsonString(display))}}}\n")
            } else if settings.heading && settings.withFilename {
                report.write(style.path(display) + "\n")
            }
        }
        // Trailing context of the previous block, then the separator and leading context.
        if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: min(afterLimit, blockStart)) }
        var contextStart = blockStart
        for _ in 0..<settings.before where contextStart > printedUpTo && contextStart > 0 {
            contextStart = lines.lineStart(contextStart - 1)
        }
        contextStart = max(contextStart, printedUpTo)
        if !json && printedAny && (settings.before > 0 || settings.after > 0) && contextStart > printedUpTo {
            report.write("--\n")
        }
        emitContext(from: contextStart, to: blockStart)
        var offset = blockStart
        while offset < blockEnd {
            let lineEnd = lines.lineEnd(offset)
            emitLine(offset, lineEnd, isMatch: true, matches: blockMatches)
            report.matchedLines += 1
            offset = lineEnd
        }
        report.matches += blockMatches.count
        printedUpTo = blockEnd
        printedAny = true
        var limit = blockEnd
        for _ in 0..<settings.after where limit < bytes.count { limit = lines.lineEnd(limit) }
        afterLimit = limit
    }
    if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: afterLimit) }
    if json && started {
        report.write("{\"type\":\"end\",\"data\":{\"path\":{\"text\":\(jsonString(display))},\"binary_offset\":null,\"stats\":{\"elapsed\":\(jsonDuration(nanoseconds: 0)),\"searches\":1,\"searches_with_match\":1,\"bytes_searched\":\(bytes.count),\"bytes_printed\":0,\"matched_lines\":\(report.matchedLines),\"matches\":\(report.matches)}}}\n")
    }
}

func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
