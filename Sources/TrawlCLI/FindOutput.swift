#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlFiles
import TrawlMatch
import TrawlText

/// What `trawl find` prints.
package enum FindMode: Sendable, Equatable {
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
package struct FindSettings: Sendable {
    package var mode = FindMode.lines
    package var lineNumbers = false
    package var withFilename = true
    /// Group matches under a file heading (on a terminal) instead of prefixing each line.
    package var heading = false
    package var style = Style(enabled: false)
    package var before = 0
    package var after = 0
    /// Count every match (for `--stats`); otherwise plain line output looks no further on a line
    /// once it matched.
    package var countsEveryMatch = false

    package init() {}
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
            if let count = settings.mode.tallyCount {
                let tally = try LineSearcher.tally(of: matcher, in: text, bytes: bytes, counting: count)
                report.writeTally(tally, display: display, settings: settings)
                return
            }
            let searcher = LineSearcher(linesBefore: settings.before, linesAfter: settings.after)
            if settings.mode == .json {
                var printer = JSONLinePrinter(bytes: bytes, display: display, report: report)
                let tally = try searcher.search(text, bytes: bytes, matcher: matcher, into: &printer)
                printer.end(tally)
                report = printer.report
            } else {
                var printer = TextLinePrinter(text: text, bytes: bytes, display: display, settings: settings, report: report)
                let tally = try searcher.search(text, bytes: bytes, matcher: matcher, into: &printer)
                report = printer.report
                report.matches = tally.matches
                report.matchedLines = tally.matchedLines
            }
        }
    }
    try outcome.get()
    return report
}

extension FileReport {
    /// Records a file's tally and writes its line of `-c`, `--count-matches` or `-l` output.
    mutating func writeTally(_ tally: LineSearcher.Tally, display: DisplayPath, settings: FindSettings) {
        matches = tally.matches
        matchedLines = tally.matchedLines
        let style = settings.style
        if settings.mode == .filesWithMatches {
            if tally.matches > 0 { write(style.path(display.bytes) + [0x0A]) }
            return
        }
        let count = settings.mode == .countLines ? tally.matchedLines : tally.matches
        if count > 0 {
            if settings.withFilename { write(style.path(display.bytes) + [UInt8(ascii: ":")]) }
            write(String(count) + "\n")
        }
    }
}

extension FindMode {
    /// What a tally per file counts (`-c`, `--count-matches`, `-l`), or nil when lines are printed.
    var tallyCount: LineSearcher.Count? {
        switch self {
        case .countLines: .matchedLines
        case .countMatches: .matches
        case .filesWithMatches: .anyMatch
        case .lines, .json: nil
        }
    }
}
