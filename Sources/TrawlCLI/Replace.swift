import TrawlMatch

/// One replacement in a file: the bytes it replaces and what goes in their place.
public struct PlannedChange: Sendable, Equatable {
    public var range: Range<Int>
    public var replacement: [UInt8]
}

/// Finds the matches of a file and expands the template for each: the plan of a replacement.
func planChanges(in text: ContiguousText, matcher: any Matcher, template: ReplacementTemplate) throws(MatchError) -> [PlannedChange] {
    var cursor = matcher.cursor(over: text)
    var changes: [PlannedChange] = []
    let result: Result<Void, MatchError> = text.withBytes { bytes in
        Result { () throws(MatchError) in
            while let match = try cursor.next() {
                let replacement = template.expand(match) { Array(bytes[$0]) }
                changes.append(PlannedChange(range: match.range, replacement: Array(replacement.utf8)))
            }
        }
    }
    try result.get()
    return changes
}

/// The text with the changes applied (changes are in order and do not overlap). Everything outside
/// the replaced ranges — a BOM, LF/CRLF line endings — is copied byte for byte.
func applyChanges(_ bytes: UnsafeBufferPointer<UInt8>, _ changes: [PlannedChange]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + changes.reduce(0) { $0 + $1.replacement.count - $1.range.count })
    var copied = 0
    for change in changes {
        output.append(contentsOf: bytes[copied..<change.range.lowerBound])
        output.append(contentsOf: change.replacement)
        copied = change.range.upperBound
    }
    output.append(contentsOf: bytes[copied...])
    return output
}

/// A unified diff (three lines of context, as `diff -u`) of a file before and after its changes.
func unifiedDiff(_ bytes: UnsafeBufferPointer<UInt8>, _ changes: [PlannedChange], display: String, style: Style) -> String {
    guard !changes.isEmpty else { return "" }
    let context = 3
    // Line ranges (0-based line indexes) touched by each change.
    var lineStarts: [Int] = [0]
    for index in 0..<bytes.count where bytes[index] == 0x0A && index + 1 < bytes.count { lineStarts.append(index + 1) }
    func lineIndex(_ offset: Int) -> Int {
        var low = 0, high = lineStarts.count
        while low + 1 < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return low
    }
    struct Run { var firstLine: Int; var lastLine: Int; var changes: [PlannedChange] }
    var runs: [Run] = []
    for change in changes {
        let first = lineIndex(change.range.lowerBound)
        let last = lineIndex(max(change.range.upperBound - 1, change.range.lowerBound))
        if let previous = runs.last, first <= previous.lastLine {
            runs[runs.count - 1].lastLine = max(previous.lastLine, last)
            runs[runs.count - 1].changes.append(change)
        } else {
            runs.append(Run(firstLine: first, lastLine: last, changes: [change]))
        }
    }
    func lineEndOffset(_ line: Int) -> Int { line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count }
    func splitLines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for index in text.indices where text[index] == 0x0A {
            result.append(text[start...index])
            start = index + 1
        }
        if start < text.count { result.append(text[start...]) }
        return result
    }
    func render(_ prefix: String, _ line: ArraySlice<UInt8>, _ paint: (String) -> String) -> String {
        var body = line
        var missingNewline = true
        if body.last == 0x0A { body = body.dropLast(); missingNewline = false }
        var text = paint(prefix + String(decoding: body, as: UTF8.self)) + "\n"
        if missingNewline { text += "\\ No newline at end of file\n" }
        return text
    }
    var output = style.header("--- a/\(display)") + "\n" + style.header("+++ b/\(display)") + "\n"
    var lineDelta = 0
    var index = 0
    while index < runs.count {
        // A hunk: runs whose context would touch or overlap.
        var end = index
        while end + 1 < runs.count && runs[end + 1].firstLine - runs[end].lastLine <= 2 * context + 1 { end += 1 }
        let hunkFirst = max(0, runs[index].firstLine - context)
        let hunkLast = min(lineStarts.count - 1, runs[end].lastLine + context)
        var body = ""
        var oldCount = 0, newCount = 0
        var line = hunkFirst
        for runIndex in index...end {
            let run = runs[runIndex]
            while line < run.firstLine {
                body += render(" ", Array(bytes[lineStarts[line]..<lineEndOffset(line)])[...], { $0 })
                oldCount += 1; newCount += 1; line += 1
            }
            let regionStart = lineStarts[run.firstLine], regionEnd = lineEndOffset(run.lastLine)
            var newRegion: [UInt8] = []
            var copied = regionStart
            for change in run.changes {
                newRegion.append(contentsOf: bytes[copied..<change.range.lowerBound])
                newRegion.append(contentsOf: change.replacement)
                copied = change.range.upperBound
            }
            newRegion.append(contentsOf: bytes[copied..<regionEnd])
            for old in run.firstLine...run.lastLine {
                body += render("-", Array(bytes[lineStarts[old]..<lineEndOffset(old)])[...], style.removed)
                oldCount += 1
            }
            for new in splitLines(newRegion) {
                body += render("+", new, style.added)
                newCount += 1
            }
            line = run.lastLine + 1
        }
        while line <= hunkLast {
            body += render(" ", Array(bytes[lineStarts[line]..<lineEndOffset(line)])[...], { $0 })
            oldCount += 1; newCount += 1; line += 1
        }
        let oldStart = hunkFirst + 1, newStart = hunkFirst + 1 + lineDelta
        output += style.hunk("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@") + "\n" + body
        lineDelta += newCount - oldCount
        index = end + 1
    }
    return output
}
