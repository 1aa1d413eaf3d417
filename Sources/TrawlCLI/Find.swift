#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlFiles
import TrawlMatch
import TrawlText

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
        // Lines as grep and ripgrep count them: a final line break ends the text, no empty line follows.
        options.finalLineBreakEndsText = true
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

    /// Whether a regex pattern matches exactly its own text: it has no character that PCRE2's syntax
    /// gives a meaning (`\ ^ $ . | ? * + ( ) [ ] { }`), and no line break (which a literal would also
    /// match as a CRLF).
    static func isPlainText(_ pattern: String) -> Bool {
        pattern.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "|"),
                 UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), 0x0A, 0x0D: false
            default: true
            }
        }
    }

    /// Builds the matcher.
    /// - Throws: ``MatchError/invalidPattern(message:offset:)`` for a bad regex.
    public func makeMatcher() throws(MatchError) -> any Matcher {
        // ripgrep prints every line for an empty pattern; an editor finds nothing. Trawl says so.
        guard !pattern.isEmpty else {
            throw .invalidPattern(message: "the pattern is empty (to match every line, use '^')", offset: 0)
        }
        // A regex without a metacharacter is its own text: found as a literal, as `-F` finds it, without
        // parsing and compiling it (0.2 ms, a tenth of a search a watcher answers).
        if fixedStrings || PatternOptions.isPlainText(pattern) { return try LiteralMatcher(pattern, options: findOptions) }
        var options = findOptions
        options.syntax = .regex
        return try RegexMatcher(pattern, options: options)
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
    /// Count every match (for `--stats`); otherwise plain line output looks no further on a line
    /// once it matched.
    public var countsEveryMatch = false

    public init() {}
}

/// The result of searching one file.
struct FileReport: Sendable {
    /// Output that comes before ``output``: bytes, and long stretches of the file's own text that
    /// are written from where they are (a 50 MB line is never copied).
    var earlier: [OutputPiece] = []
    /// The output being built.
    var output: [UInt8] = []
    var matches = 0
    var matchedLines = 0
    /// The bytes of text searched (without a byte-order mark, as ripgrep's `bytes_searched`).
    var bytes = 0
    /// The file's size as read, byte-order mark included: what `--stats` counts, and what a tree's
    /// index records of a file it rules out.
    var fileBytes = 0
    /// Bytes of JSON messages printed for the file (ripgrep's `bytes_printed`).
    var bytesPrinted = 0
    /// An error to report on stderr (and to make the run exit 2).
    var error: String?
    /// A note to report on stderr that is not an error.
    var note: String?
}

/// A piece of a file's output.
enum OutputPiece: Sendable {
    case bytes([UInt8])
    /// A range of the searched text, written straight from it.
    case text(ContiguousText, Range<Int>)
}

extension FileReport {
    /// Writes `range` of the searched `text` (whose bytes are `bytes`): copied when short,
    /// referenced when long.
    mutating func write(_ range: Range<Int>, of text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>) {
        guard range.count >= 1 << 16 else {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            return
        }
        if !output.isEmpty {
            earlier.append(.bytes(output))
            output = []
        }
        earlier.append(.text(text, range))
    }

    /// Whether the search made output.
    var hasOutput: Bool { !earlier.isEmpty || !output.isEmpty }

    /// Writes the output to standard output, after `pending` (which is then emptied) when there is
    /// a reason not to add to it: a long output or pieces of text.
    func writeOut(after pending: inout [UInt8]) {
        if earlier.isEmpty && output.count < 1 << 16 {
            pending += output
            return
        }
        Console.write(pending)
        pending.removeAll(keepingCapacity: true)
        for piece in earlier {
            switch piece {
            case .bytes(let bytes): Console.write(bytes)
            case .text(let text, let range): text.withBytes { Console.write(UnsafeBufferPointer(rebasing: $0[range])) }
            }
        }
        Console.write(output)
    }

    mutating func write(_ string: String) { output.append(contentsOf: string.utf8) }
    mutating func write(_ bytes: some Sequence<UInt8>) { output.append(contentsOf: bytes) }
    /// Bulk copy (a generic sequence would be appended a byte at a time).
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { output.append(contentsOf: bytes) }
}

/// Searches one file's text and renders the output of `settings.mode`.
func searchText(_ text: ContiguousText, display: DisplayPath, matcher: any Matcher, settings: FindSettings) throws(MatchError) -> FileReport {
    var report = FileReport()
    report.bytes = text.utf8Count
    let outcome: Result<Void, MatchError> = text.withBytes { bytes in
        Result { () throws(MatchError) in
            switch settings.mode {
            case .filesWithMatches, .countMatches, .countLines:
                let tally = try tallyMatches(of: matcher, in: text, bytes: bytes, mode: settings.mode)
                report.writeTally(tally, display: display, settings: settings)
            case .lines, .json:
                var lines = LineLocator(bytes)
                var cursor = matcher.cursor(over: text)
                try renderLines(&cursor, text: text, bytes: bytes, lines: &lines, display: display, settings: settings,
                                canMatchAcrossLines: matcher.canMatchAcrossLines, report: &report)
            }
        }
    }
    try outcome.get()
    return report
}

extension FileReport {
    /// Records a file's tally and writes its line of `-c`, `--count-matches` or `-l` output.
    mutating func writeTally(_ tally: Tally, display: DisplayPath, settings: FindSettings) {
        matches = tally.matches
        matchedLines = tally.lines
        let style = settings.style
        if settings.mode == .filesWithMatches {
            if tally.matches > 0 { write(style.path(display.bytes) + [0x0A]) }
            return
        }
        let count = settings.mode == .countLines ? tally.lines : tally.matches
        if count > 0 {
            if settings.withFilename { write(style.path(display.bytes) + [UInt8(ascii: ":")]) }
            write(String(count) + "\n")
        }
    }
}

/// A file's (or a part's) matches and matched lines.
typealias Tally = (matches: Int, lines: Int)

extension FindMode {
    /// Whether the output is a tally per file (`-c`, `--count-matches`, `-l`), not lines.
    var isTally: Bool { self == .countLines || self == .countMatches || self == .filesWithMatches }
}

/// Whether a file's content can be tallied by ``tallyMatches(of:in:mode:)`` while it is checked:
/// when every match, and all it depends on, lies in one line (then a search of each block of
/// lines alone finds exactly the matches of a search of the whole text).
func canTallyWhileChecking(_ matcher: any Matcher, mode: FindMode) -> Bool {
    mode.isTally && matcher.locality.isLineBounded
}

/// The tally of a file whose text is not checked yet (a large mapped file), taken block by block
/// as each block is checked: one pass over memory instead of two. Or why the file cannot be
/// searched, exactly as a check first would have said. Only when ``canTallyWhileChecking(_:mode:)``.
func tallyMatches(of matcher: any Matcher, in content: FileContent, mode: FindMode,
                  blockBytes: Int = FileContent.checkBlockBytes) -> Result<Result<Tally, MatchError>, FileSkip> {
    let text = content.text
    // (For -l, blocks after a match are still searched: a file with a bad byte is skipped, matches
    // or not, as when it is checked first.)
    return content.inCheckedBlocks(blockBytes: blockBytes) { block in
        text.withBytes { bytes in
            // Each block is its own context: the matcher reads nothing outside it, and a
            // line-bounded match needs nothing outside its line.
            Result { () throws(MatchError) in try tallyMatches(of: matcher, in: text, bytes: bytes, range: block, context: block, mode: mode) }
        }
    }.map { blocks in
        Result { () throws(MatchError) in
            var total: Tally = (0, 0)
            for block in blocks {
                let tally = try block.get()
                total.matches += tally.matches
                total.lines += tally.lines
            }
            // For -l, a block stops at its first match and the file has one.
            if mode == .filesWithMatches { total.matches = min(total.matches, 1) }
            return total
        }
    }
}

/// The matches and the matched lines of `text` (for `filesWithMatches`, whether there is one).
/// A large text whose matches cannot span lines is counted in parts cut at line starts, each
/// with the whole text as context: by the matcher's contract every match is then found once.
private func tallyMatches(of matcher: any Matcher, in text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>,
                          mode: FindMode) throws(MatchError) -> (matches: Int, lines: Int) {
    let whole = 0..<bytes.count
    // (A file list stops at the first match: searched in order, a match near the start ends it.)
    guard mode != .filesWithMatches, bytes.count >= partedWorkThreshold, !matcher.canMatchAcrossLines else {
        return try tallyMatches(of: matcher, in: text, bytes: bytes, range: whole, context: whole, mode: mode)
    }
    let lines = LineLocator(bytes)
    let tallies = inParts(of: bytes.count, boundary: { lines.lineEnd($0 - 1) }) { range in
        text.withBytes { bytes in
            Result { () throws(MatchError) in
                try tallyMatches(of: matcher, in: text, bytes: bytes, range: range, context: 0..<bytes.count, mode: mode)
            }
        }
    }
    var total = (matches: 0, lines: 0)
    for tally in tallies {
        let tally = try tally.get()
        total.matches += tally.matches
        total.lines += tally.lines
    }
    return total
}

/// The matches and matched lines starting in `range` of `text`, searched within `context`;
/// stops at the first match for `filesWithMatches`.
private func tallyMatches(of matcher: any Matcher, in text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>,
                          range: Range<Int>, context: Range<Int>, mode: FindMode) throws(MatchError) -> Tally {
    var lines = LineLocator(bytes)
    var cursor = matcher.cursor(over: text, in: range, context: context)
    var tally = (matches: 0, lines: 0)
    if mode == .filesWithMatches {
        if try cursor.next() != nil { tally.matches = 1 }
        return tally
    }
    var lastCountedLine = 0
    let spansLines = matcher.canMatchAcrossLines
    while let match = try cursor.next() {
        // An empty match at the end of a part that is not the text's belongs to the next part.
        if match.range.lowerBound == range.upperBound && range.upperBound < bytes.count { break }
        tally.matches += 1
        guard mode == .countLines else { continue }
        if !spansLines {
            // One line per match, the rest of its line skipped: no line numbers needed, so the
            // text is not scanned for line feeds up to each match.
            tally.lines += 1
        } else {
            let firstLine = lines.lineNumber(match.range.lowerBound)
            let lastLine = lines.lineNumber(lastPosition(of: match))
            tally.lines += max(0, lastLine - max(firstLine, lastCountedLine + 1) + 1)
            lastCountedLine = max(lastCountedLine, lastLine)
        }
        // Further matches on a counted line do not change the count: skip them.
        let lineEnd = lines.lineEnd(lastPosition(of: match))
        if lineEnd > match.range.upperBound { cursor.skip(to: lineEnd) }
    }
    return tally
}

/// The offset whose line is the last line a match touches (its last byte, or its position when empty).
private func lastPosition(of match: Match) -> Int { max(match.range.upperBound - 1, match.range.lowerBound) }

/// Renders matching lines (grouping the matches of a line), context lines and separators, as
/// text or as JSON Lines. Time is linear in the text searched plus the output, however long the
/// lines: each match is looked at once per line it touches, and line ends are found once.
private func renderLines(_ cursor: inout MatchCursor, text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>, lines: inout LineLocator,
                         display: DisplayPath, settings: FindSettings, canMatchAcrossLines: Bool, report: inout FileReport) throws(MatchError) {
    let style = settings.style
    let json = settings.mode == .json
    var printedUpTo = 0        // offset past the last printed line
    var printedAny = false
    var afterLimit = 0         // after-context may print up to here
    var pending = try cursor.next()
    var started = false
    let pathPrefix = settings.withFilename && !settings.heading ? style.path(display.bytes) : nil
    // Plain lines need one match a line: after it, the rest of the line is not searched (as
    // ripgrep does), unless colours, JSON or statistics need every match.
    let oneMatchPerLine = !json && !style.enabled && !settings.countsEveryMatch && !canMatchAcrossLines

    func writeJSON(_ message: [UInt8]) {
        report.write(message)
        report.bytesPrinted += message.count
    }

    /// One JSON message for the lines `start..<end` (a block of lines in ripgrep's form).
    func emitJSON(_ start: Int, _ end: Int, isMatch: Bool, matches: ArraySlice<Match>) {
        // Written straight into the output: a long line is copied once, not rebuilt as strings.
        let before = report.output.count
        let lineNumber = lines.lineNumber(start)
        JSONWriter.append(to: &report.output) { writer in
            writer.object { writer in
                writer.member("type", isMatch ? "match" : "context")
                writer.member("data", object: { writer in
                    writer.key("path")
                    display.writeJSON(to: &writer)
                    writer.textMember("lines", UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    writer.member("line_number", lineNumber)
                    writer.member("absolute_offset", start)
                    writer.member("submatches", array: { writer in
                        for match in matches {
                            let lower = max(match.range.lowerBound, start), upper = min(match.range.upperBound, end)
                            guard lower <= upper else { continue }
                            writer.element()
                            writer.object { writer in
                                writer.textMember("match", UnsafeBufferPointer(rebasing: bytes[lower..<upper]))
                                writer.member("start", lower - start)
                                writer.member("end", upper - start)
                            }
                        }
                    })
                })
            }
            writer.output.append(0x0A)
        }
        report.bytesPrinted += report.output.count - before
    }

    /// One line of text output, the parts inside `matches` coloured.
    func emitLine(_ start: Int, _ end: Int, isMatch: Bool, matches: ArraySlice<Match>) {
        let separator = UInt8(ascii: isMatch ? ":" : "-")
        if let pathPrefix { report.write(pathPrefix); report.write(CollectionOfOne(separator)) }
        if settings.lineNumbers {
            report.write(style.lineNumber(String(lines.lineNumber(start))))
            report.write(CollectionOfOne(separator))
        }
        // The line as it is, CR included (as ripgrep prints it); only the LF is the terminator.
        let contentEnd = end > start && bytes[end - 1] == 0x0A ? end - 1 : end
        var written = start
        if style.enabled {
            for match in matches {
                let lower = max(match.range.lowerBound, written), upper = min(match.range.upperBound, contentEnd)
                guard lower < upper else { continue }
                report.write(UnsafeBufferPointer(rebasing: bytes[written..<lower]))
                report.write(style.match(bytes[lower..<upper]))
                written = upper
            }
        }
        report.write(written..<contentEnd, of: text, bytes: bytes)
        report.write(CollectionOfOne(UInt8(0x0A)))
    }

    func emitContext(from start: Int, to end: Int) {
        if json {
            var offset = start
            while offset < end {
                let lineEnd = lines.lineEnd(offset)
                emitJSON(offset, lineEnd, isMatch: false, matches: [])
                offset = lineEnd
            }
        } else {
            var offset = start
            while offset < end {
                let lineEnd = lines.lineEnd(offset)
                emitLine(offset, lineEnd, isMatch: false, matches: [])
                offset = lineEnd
            }
        }
        printedUpTo = max(printedUpTo, end)
    }

    while let first = pending {
        // A block: the lines of one match, extended by every match that starts within them.
        let blockStart = lines.lineStart(first.range.lowerBound)
        var blockEnd = lines.lineEnd(lastPosition(of: first))
        // The end of the block's first line, known already when no match spans lines (a long
        // line is then scanned for its end once, not twice).
        let firstLineEnd = canMatchAcrossLines ? nil : blockEnd
        var blockMatches = [first]
        if oneMatchPerLine && blockEnd > first.range.upperBound { cursor.skip(to: blockEnd) }
        pending = try cursor.next()
        while let next = pending, next.range.lowerBound < blockEnd || (next.range.lowerBound == bytes.count && blockEnd == bytes.count) {
            blockMatches.append(next)
            let last = lastPosition(of: next)
            if last >= blockEnd { blockEnd = lines.lineEnd(last) }
            pending = try cursor.next()
        }
        if !started {
            started = true
            if json {
                writeJSON(JSONWriter.line { writer in
                    writer.object { writer in
                        writer.member("type", "begin")
                        writer.member("data", object: { writer in
                            writer.key("path")
                            display.writeJSON(to: &writer)
                        })
                    }
                })
            } else if settings.heading && settings.withFilename {
                report.write(style.path(display.bytes) + [0x0A])
            }
        }
        // Trailing context of the previous block, then the separator and leading context.
        if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: min(afterLimit, blockStart)) }
        var contextStart = blockStart
        var before = settings.before
        while before > 0 && contextStart > printedUpTo && contextStart > 0 {
            contextStart = lines.lineStart(contextStart - 1)
            before -= 1
        }
        contextStart = max(contextStart, printedUpTo)
        if !json && printedAny && (settings.before > 0 || settings.after > 0) && contextStart > printedUpTo {
            report.write("--\n")
        }
        emitContext(from: contextStart, to: blockStart)
        if json {
            // One message for the whole block, as ripgrep writes a match spanning lines.
            emitJSON(blockStart, blockEnd, isMatch: true, matches: blockMatches[...])
            var offset = blockStart
            repeat {
                report.matchedLines += 1
                offset = lines.lineEnd(offset)
            } while offset < blockEnd
        } else {
            var offset = blockStart
            var firstRelevant = 0
            repeat {
                let lineEnd = offset == blockStart ? firstLineEnd ?? lines.lineEnd(offset) : lines.lineEnd(offset)
                // Matches wholly before this line are done with; the rest start at `firstRelevant`.
                while firstRelevant < blockMatches.count && blockMatches[firstRelevant].range.upperBound <= offset
                        && !blockMatches[firstRelevant].range.isEmpty {
                    firstRelevant += 1
                }
                var lastRelevant = firstRelevant
                while lastRelevant < blockMatches.count && blockMatches[lastRelevant].range.lowerBound < lineEnd { lastRelevant += 1 }
                emitLine(offset, lineEnd, isMatch: true, matches: blockMatches[firstRelevant..<lastRelevant])
                report.matchedLines += 1
                offset = lineEnd
            } while offset < blockEnd
        }
        report.matches += blockMatches.count
        printedUpTo = blockEnd
        printedAny = true
        var limit = blockEnd
        var after = settings.after
        while after > 0 && limit < bytes.count {
            limit = lines.lineEnd(limit)
            after -= 1
        }
        afterLimit = limit
    }
    if afterLimit > printedUpTo { emitContext(from: printedUpTo, to: afterLimit) }
    if json && started {
        let (printed, matchedLines, matches) = (report.bytesPrinted, report.matchedLines, report.matches)
        report.write(JSONWriter.line { writer in
            writer.object { writer in
                writer.member("type", "end")
                writer.member("data", object: { writer in
                    writer.key("path")
                    display.writeJSON(to: &writer)
                    writer.key("binary_offset")
                    writer.null()
                    writer.member("stats", object: { writer in
                        writer.key("elapsed")
                        writer.duration(nanoseconds: 0)
                        writer.member("searches", 1)
                        writer.member("searches_with_match", 1)
                        writer.member("bytes_searched", bytes.count)
                        writer.member("bytes_printed", printed)
                        writer.member("matched_lines", matchedLines)
                        writer.member("matches", matches)
                    })
                })
            }
        })
    }
}

