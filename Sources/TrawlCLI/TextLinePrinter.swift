import TrawlFiles
import TrawlMatch
import TrawlText

/// Prints matched and context lines as grep and ripgrep do: `path:line:text`, or under a
/// heading, the matches coloured when asked.
struct TextLinePrinter: LineSink {
    let text: ContiguousText
    let bytes: UnsafeBufferPointer<UInt8>
    let display: DisplayPath
    let settings: FindSettings
    var report: FileReport
    private let pathPrefix: [UInt8]?
    /// Plain lines need one match a line: after it, the rest of the line is not searched (as
    /// ripgrep does), unless colours or statistics need every match.
    let needsEveryMatch: Bool

    init(text: ContiguousText, bytes: UnsafeBufferPointer<UInt8>, display: DisplayPath, settings: FindSettings, report: FileReport) {
        self.text = text
        self.bytes = bytes
        self.display = display
        self.settings = settings
        self.report = report
        pathPrefix = settings.withFilename && !settings.heading ? settings.style.path(display.bytes) : nil
        needsEveryMatch = settings.style.enabled || settings.countsEveryMatch
    }

    var needsLineNumbers: Bool { settings.lineNumbers }
    var takesBlocks: Bool { false }

    mutating func begin() {
        if settings.heading && settings.withFilename { report.write(settings.style.path(display.bytes) + [0x0A]) }
    }

    mutating func contextBreak() { report.write("--\n") }

    mutating func matched(_ lines: Range<Int>, lineNumber: Int, matches: ArraySlice<Match>) {
        emit(lines, lineNumber: lineNumber, separator: UInt8(ascii: ":"), matches: matches)
    }

    mutating func context(_ line: Range<Int>, lineNumber: Int) {
        emit(line, lineNumber: lineNumber, separator: UInt8(ascii: "-"), matches: [])
    }

    /// One line of output, the parts inside `matches` coloured.
    private mutating func emit(_ line: Range<Int>, lineNumber: Int, separator: UInt8, matches: ArraySlice<Match>) {
        let style = settings.style
        if let pathPrefix { report.write(pathPrefix); report.write(CollectionOfOne(separator)) }
        if settings.lineNumbers {
            report.write(style.lineNumber(String(lineNumber)))
            report.write(CollectionOfOne(separator))
        }
        // The line as it is, CR included (as ripgrep prints it); only the LF is the terminator.
        let contentEnd = LineLocator(bytes).contentEnd(of: line)
        var written = line.lowerBound
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
}
