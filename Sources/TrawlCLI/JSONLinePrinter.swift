import TrawlFiles
import TrawlMatch

/// Prints a file's lines in ripgrep's JSON Lines format: `begin`, a `match` message per block of
/// matched lines (one for a match spanning lines), `context` messages, `end` with the file's
/// statistics.
struct JSONLinePrinter: LineSink {
    let bytes: UnsafeBufferPointer<UInt8>
    let display: DisplayPath
    var report: FileReport

    var needsEveryMatch: Bool { true }
    var needsLineNumbers: Bool { true }
    var takesBlocks: Bool { true }

    mutating func begin() {
        write(JSONWriter.line { writer in
            writer.object { writer in
                writer.member("type", "begin")
                writer.member("data", object: { writer in
                    writer.key("path")
                    display.writeJSON(to: &writer)
                })
            }
        })
    }

    mutating func contextBreak() {}

    mutating func matched(_ lines: Range<Int>, lineNumber: Int, matches: ArraySlice<Match>) {
        message(lines, lineNumber: lineNumber, isMatch: true, matches: matches)
    }

    mutating func context(_ line: Range<Int>, lineNumber: Int) {
        message(line, lineNumber: lineNumber, isMatch: false, matches: [])
    }

    /// The `end` message, when the file had a match.
    mutating func end(_ tally: LineSearcher.Tally) {
        report.matches = tally.matches
        report.matchedLines = tally.matchedLines
        guard tally.matches > 0 else { return }
        let (printed, bytesSearched) = (report.bytesPrinted, bytes.count)
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
                        writer.member("bytes_searched", bytesSearched)
                        writer.member("bytes_printed", printed)
                        writer.member("matched_lines", tally.matchedLines)
                        writer.member("matches", tally.matches)
                    })
                })
            }
        })
    }

    private mutating func write(_ message: [UInt8]) {
        report.write(message)
        report.bytesPrinted += message.count
    }

    /// One message for the lines `range` (a block of lines in ripgrep's form), written straight
    /// into the output: a long line is copied once, not rebuilt as strings.
    private mutating func message(_ range: Range<Int>, lineNumber: Int, isMatch: Bool, matches: ArraySlice<Match>) {
        let before = report.output.count
        let (bytes, display) = (self.bytes, self.display)
        JSONWriter.append(to: &report.output) { writer in
            writer.object { writer in
                writer.member("type", isMatch ? "match" : "context")
                writer.member("data", object: { writer in
                    writer.key("path")
                    display.writeJSON(to: &writer)
                    writer.textMember("lines", UnsafeBufferPointer(rebasing: bytes[range]))
                    writer.member("line_number", lineNumber)
                    writer.member("absolute_offset", range.lowerBound)
                    writer.member("submatches", array: { writer in
                        for match in matches {
                            let lower = max(match.range.lowerBound, range.lowerBound), upper = min(match.range.upperBound, range.upperBound)
                            guard lower <= upper else { continue }
                            writer.element()
                            writer.object { writer in
                                writer.textMember("match", UnsafeBufferPointer(rebasing: bytes[lower..<upper]))
                                writer.member("start", lower - range.lowerBound)
                                writer.member("end", upper - range.lowerBound)
                            }
                        }
                    })
                })
            }
            writer.output.append(0x0A)
        }
        report.bytesPrinted += report.output.count - before
    }
}
