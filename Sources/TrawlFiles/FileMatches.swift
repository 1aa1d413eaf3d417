import SystemPackage
import TrawlMatch
import TrawlText

/// The lines of one file that a project-wide search found, as an editor lists them.
public struct FileMatches: Sendable {
    /// The file, as the walk found it.
    public let path: FilePath
    /// Matched lines and their context lines, in order.
    public var lines: [MatchedLine] = []
    /// The matches found.
    public var matchCount = 0
    /// Why the file was not searched (binary, not UTF-8, UTF-16, not a regular file,
    /// unreadable, changed while read), or nil when it was.
    public var skip: FileSkip?
    /// The pattern failed on this file (a regex limit), or nil.
    public var error: MatchError?

    /// The results of the file at `path`, with nothing found yet.
    public init(path: FilePath) { self.path = path }
}

/// A line of a file's text, with the matches on it.
public struct MatchedLine: Sendable, Hashable {
    /// Its line number, from 1.
    public var number: Int
    /// Its byte range in the file's text (after a byte-order mark), line feed included.
    public var range: Range<Int>
    /// Its text, without the line feed.
    public var text: String
    /// The matches that touch it, as byte ranges of the file's text (one spanning lines is in
    /// each line it touches); empty for a context line.
    public var matches: [Range<Int>]
    /// A context line: one around matched lines that holds no match.
    public var isContext: Bool { matches.isEmpty }
}

/// A ``LineSink`` that keeps the lines.
struct MatchedLineCollector: LineSink {
    let bytes: UnsafeBufferPointer<UInt8>
    var lines: [MatchedLine] = []

    var needsEveryMatch: Bool { true }
    var needsLineNumbers: Bool { true }
    var takesBlocks: Bool { false }

    mutating func begin() {}
    mutating func contextBreak() {}

    mutating func matched(_ lines: Range<Int>, lineNumber: Int, matches: ArraySlice<Match>) {
        self.lines.append(line(lines, lineNumber, matches.map(\.range)))
    }

    mutating func context(_ line: Range<Int>, lineNumber: Int) {
        lines.append(self.line(line, lineNumber, []))
    }

    private func line(_ range: Range<Int>, _ number: Int, _ matches: [Range<Int>]) -> MatchedLine {
        let end = LineLocator(bytes).contentEnd(of: range)
        // Checked UTF-8 cut at line feeds: valid.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end]), as: UTF8.self)
        return MatchedLine(number: number, range: range, text: text, matches: matches)
    }
}

extension TreeSearch {
    /// Finds the lines holding matches of `matcher` in every file, with the context lines
    /// `lines` asks for, and hands each file's lines to `receive` in walk order (files without a
    /// match too: with no lines, or with the reason they were skipped). Returns the walk's
    /// problems and what an index ruled out.
    ///
    /// This is what `trawl find --json` prints, as values.
    public func findMatches(of matcher: any Matcher, lines searcher: LineSearcher = LineSearcher(),
                            receive: (FileMatches) -> Void) -> FilesToReadSummary {
        let searchFile: @Sendable (WalkedFile, FileSkip?) -> FileMatches = { file, recordedSkip in
            var result = FileMatches(path: file.path)
            if let recordedSkip {
                result.skip = recordedSkip
                return result
            }
            switch FileContent.read(file, for: .search(allowsMapping: true, allowsStreams: file.isExplicit, checksLater: false)) {
            case .failure(let skip):
                result.skip = skip
            case .success(let content):
                content.text.withBytes { bytes in
                    var collector = MatchedLineCollector(bytes: bytes)
                    do throws(MatchError) {
                        result.matchCount = try searcher.search(content.text, bytes: bytes, matcher: matcher, into: &collector).matches
                        result.lines = collector.lines
                    } catch {
                        result.error = error
                    }
                }
                if content.changedWhileMapped {
                    result = FileMatches(path: file.path)
                    result.skip = .changedDuringRead
                }
            }
            return result
        }
        return run(searchingEach: searchFile, receive: receive)
    }
}
