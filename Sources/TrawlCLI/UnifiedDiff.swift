import TrawlFiles
import TrawlKernels
import TrawlMatch
import TrawlText

/// A unified diff (three lines of context, as `diff -u`) of one file, built as its changes arrive
/// in order, so a file with millions of changes needs no list of them. The output is what `git
/// apply` and `patch` accept: a change that joins lines takes the joined line into its hunk, a
/// side that is empty is numbered as `diff` numbers it, and "\ No newline at end of file" follows
/// only a side's last line.
struct UnifiedDiff {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let style: Style
    private let context = 3
    private var lines: LineLocator
    /// Finished hunks not yet taken (see ``takeOutput()``).
    private var output: [UInt8] = []
    private let header: [UInt8]
    private var headerWritten = false
    /// Bytes before the text on the file's first line (a byte-order mark), shown on both sides.
    private let leading: [UInt8]

    // The run being built: whole old lines `runStart..<runEnd` and their new text up to `runCopied`.
    private var runStart = -1
    private var runEnd = -1
    private var runCopied = 0
    private var runNew: [UInt8] = []

    // The hunk being built: old lines from `hunkStart` to `hunkEnd`.
    private var hunkStart = -1
    private var hunkEnd = 0
    private var hunkBody: [UInt8] = []
    // Changed lines not yet in the body: adjacent changes form one block, removals first (as diff).
    private var removedLines: [UInt8] = []
    private var addedLines: [UInt8] = []
    private var oldCount = 0
    private var newCount = 0
    private var lineDelta = 0

    /// A diff of `bytes` (the text after `leading`, the file's byte-order mark if it has one) for
    /// the file shown as `path`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, leading: [UInt8] = [], path: DisplayPath, style: Style) {
        self.bytes = bytes
        self.leading = leading
        self.style = style
        lines = LineLocator(bytes)
        let name = path.diffPath
        header = style.header(UnifiedDiff.quoted(Array("a/".utf8) + name, prefix: "--- ")) + [0x0A]
            + style.header(UnifiedDiff.quoted(Array("b/".utf8) + name, prefix: "+++ ")) + [0x0A]
    }

    /// Adds the next change (after every change added before it).
    mutating func add(_ range: Range<Int>, _ replacement: some Collection<UInt8>) {
        extendRunOverJoinedLines()
        let last = max(range.upperBound - 1, range.lowerBound)
        if runStart >= 0 && (range.lowerBound < runEnd || (range.lowerBound == bytes.count && runEnd == bytes.count)) {
            runEnd = max(runEnd, lines.lineEnd(last))
        } else {
            finishRun()
            runStart = lines.lineStart(range.lowerBound)
            runEnd = lines.lineEnd(last)
            runCopied = runStart
            runNew = []
        }
        runNew.append(contentsOf: bytes[runCopied..<range.lowerBound])
        runNew.append(contentsOf: replacement)
        runCopied = range.upperBound
    }

    /// Completes the diff.
    mutating func finish() {
        finishRun()
        closeHunk()
    }

    /// The size of the output not yet taken.
    var pendingOutputCount: Int { output.count }

    /// The diff's output since the last call (the header comes with the first hunk; there is
    /// nothing at all when there were no changes).
    mutating func takeOutput() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// When the new text of the run ends inside a line (a change ate a line break), the next old
    /// line joins it: take that line into the run. (A run at the start that deleted everything
    /// ends inside a line too when the file has a byte-order mark, which stays.)
    private mutating func extendRunOverJoinedLines() {
        while runStart >= 0 && runCopied >= runEnd && runEnd < bytes.count
                && (runNew.isEmpty ? runStart == 0 && !leading.isEmpty : runNew.last != 0x0A) {
            runEnd = lines.lineEnd(runEnd)
        }
    }

    private mutating func finishRun() {
        guard runStart >= 0 else { return }
        extendRunOverJoinedLines()
        runNew.append(contentsOf: bytes[runCopied..<runEnd])
        addRun(runStart, runEnd, runNew)
        runStart = -1
    }

    private mutating func addRun(_ start: Int, _ end: Int, _ new: [UInt8]) {
        if hunkStart >= 0 && countLines(hunkEnd, start) > 2 * context {
            closeHunk()
        }
        if hunkStart < 0 {
            // Leading context: up to three lines, never before the previous hunk's end.
            var first = start
            var remaining = context
            while remaining > 0 && first > hunkEnd {
                first = lines.lineStart(first - 1)
                remaining -= 1
            }
            hunkStart = first
            hunkEnd = first
        }
        appendContext(hunkEnd, start)
        var offset = start
        while offset < end {
            let lineEnd = lines.lineEnd(offset)
            appendLine(UInt8(ascii: "-"), (offset == 0 ? leading : []) + bytes[offset..<lineEnd], to: &removedLines, paint: style.removed)
            oldCount += 1
            offset = lineEnd
        }
        // The byte-order mark stays at the start of the file, whatever replaced the first line.
        let new = start == 0 ? leading + new : new
        var pieceStart = 0
        while pieceStart < new.count {
            let pieceEnd = new[pieceStart...].firstIndex(of: 0x0A).map { $0 + 1 } ?? new.count
            appendLine(UInt8(ascii: "+"), new[pieceStart..<pieceEnd], to: &addedLines, paint: style.added)
            newCount += 1
            pieceStart = pieceEnd
        }
        hunkEnd = end
    }

    private mutating func closeHunk() {
        guard hunkStart >= 0 else { return }
        var end = hunkEnd
        var remaining = context
        while remaining > 0 && end < bytes.count {
            end = lines.lineEnd(end)
            remaining -= 1
        }
        appendContext(hunkEnd, end)
        flushChangedLines()
        hunkEnd = end
        let firstLine = lines.lineNumber(hunkStart)
        // An empty side is numbered by the line before it, as diff does ("-0,0" for an empty file).
        let oldStart = oldCount == 0 ? firstLine - 1 : firstLine
        let newStart = newCount == 0 ? firstLine - 1 + lineDelta : firstLine + lineDelta
        if !headerWritten {
            output += header
            headerWritten = true
        }
        // A side of one line is written without its count, as diff writes it.
        func side(_ start: Int, _ count: Int) -> String { count == 1 ? "\(start)" : "\(start),\(count)" }
        output += Array((style.hunk("@@ -\(side(oldStart, oldCount)) +\(side(newStart, newCount)) @@") + "\n").utf8)
        output += hunkBody
        lineDelta += newCount - oldCount
        hunkBody = []
        oldCount = 0
        newCount = 0
        hunkStart = -1
    }

    private mutating func flushChangedLines() {
        hunkBody += removedLines
        hunkBody += addedLines
        removedLines.removeAll(keepingCapacity: true)
        addedLines.removeAll(keepingCapacity: true)
    }

    private mutating func appendContext(_ start: Int, _ end: Int) {
        var offset = start
        if offset < end { flushChangedLines() }
        while offset < end {
            let lineEnd = lines.lineEnd(offset)
            appendLine(UInt8(ascii: " "), (offset == 0 ? leading : []) + bytes[offset..<lineEnd], to: &hunkBody) { Array($0) }
            oldCount += 1
            newCount += 1
            offset = lineEnd
        }
    }

    private func appendLine(_ marker: UInt8, _ line: some Collection<UInt8>, to target: inout [UInt8], paint: (ArraySlice<UInt8>) -> [UInt8]) {
        let body = [marker] + line
        if body.last == 0x0A {
            target += paint(body.dropLast()) + [0x0A]
        } else {
            // Only a side's last line can lack its line break.
            target += paint(body[...]) + Array("\n\\ No newline at end of file\n".utf8)
        }
    }

    private func countLines(_ start: Int, _ end: Int) -> Int {
        guard end > start, let base = bytes.baseAddress else { return 0 }
        return trawl_count_newlines(base + start, end - start)
    }

    /// A header line naming `path`, quoted as git quotes names with special bytes (which both
    /// `git apply` and GNU `patch` read).
    static func quoted(_ path: [UInt8], prefix: String) -> [UInt8] {
        let needsQuotes = path.contains { $0 < 0x20 || $0 == 0x7F || $0 >= 0x80 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        // A name with a space ends with a tab, as git writes it, so that patch reads all of it.
        guard needsQuotes else { return Array(prefix.utf8) + path + (path.contains(0x20) ? [0x09] : []) }
        var result = Array(prefix.utf8) + [UInt8(ascii: "\"")]
        for byte in path {
            switch byte {
            case 0x09: result += Array("\\t".utf8)
            case 0x0A: result += Array("\\n".utf8)
            case 0x0D: result += Array("\\r".utf8)
            case UInt8(ascii: "\""): result += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): result += Array("\\\\".utf8)
            case 0x20..<0x7F: result.append(byte)
            default:
                let octal = String(byte, radix: 8)
                result += Array(("\\" + String(repeating: "0", count: 3 - octal.count) + octal).utf8)
            }
        }
        return result + [UInt8(ascii: "\"")]
    }
}
