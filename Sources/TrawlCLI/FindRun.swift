#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import SystemPackage
import TrawlFiles
import TrawlIndex
import TrawlMatch
import TrawlConcurrency

/// `trawl find`: walks, searches files in parallel, prints results in walk order.
package struct FindRun: Sendable {
    package var pattern: FindQuery
    package var walk = WalkOptions()
    package var settings = FindSettings()
    package var paths: [FilePath] = []
    package var stats = false
    package var progress = false
    /// Use a tree's index (`ROOT/.trawl/index`) when there is one (`--no-index` turns it off).
    package var useIndex = true

    package init(pattern: FindQuery) { self.pattern = pattern }

    /// Runs the search; returns the exit code (0 found, 1 nothing found, 2 error).
    package func run() -> Int32 {
        let matcher: any Matcher
        do { matcher = try pattern.makeMatcher() } catch {
            Console.error("\(error)")
            return 2
        }
        let start = monotonicNanoseconds()
        let settings = self.settings
        let implicitRoot = paths.isEmpty
        var failed = false
        var progress = Progress(enabled: self.progress && Console.stderrIsTerminal)
        var totals = (matches: 0, lines: 0, bytes: 0, searched: 0, withMatch: 0, files: 0, printed: 0, bytesWithMatch: 0)
        var pending: [UInt8] = []
        // Between files' lines, as ripgrep and grep part them: a blank line under headings, "--"
        // when context is shown.
        let fileSeparator: [UInt8]? = settings.mode != .lines ? nil
            : settings.heading && settings.withFilename ? [0x0A]
            : settings.before > 0 || settings.after > 0 ? Array("--\n".utf8) : nil
        var printedLines = false
        let roots: [FilePath] = paths.isEmpty ? ["."] : paths
        let files = IndexedFiles(roots, query: matcher.literalQuery, options: walk, usesIndex: useIndex)
        files.problems.forEach(Console.error)
        let summary = TreeSearch(files).run(searchingEach: { file, recordedSkip in
            if let recordedSkip {
                // The index's listing says why a search skips this unchanged file: said unread.
                return FindRun.search(.failure(recordedSkip), display: DisplayPath(file.path, implicitRoot: implicitRoot), isExplicit: false,
                                      matcher: matcher, settings: settings)
            }
            return FindRun.search(file, implicitRoot: implicitRoot, matcher: matcher, settings: settings)
        }, receive: { report in
            if let error = report.error {
                Console.error(error)
                failed = true
            }
            if let note = report.note { Console.error(note) }
            if let fileSeparator, report.hasOutput {
                if printedLines { pending += fileSeparator }
                printedLines = true
            }
            report.writeOut(after: &pending)
            totals.printed += report.bytesPrinted
            totals.matches += report.matches
            totals.lines += report.matchedLines
            totals.bytes += report.fileBytes
            totals.files += 1
            if report.error == nil && report.note == nil { totals.searched += 1 }
            if report.matches > 0 {
                totals.withMatch += 1
                totals.bytesWithMatch += report.bytes
            }
            if pending.count >= 1 << 16 || totals.files % 64 == 0 {
                Console.write(pending)
                pending.removeAll(keepingCapacity: true)
                progress.update(files: totals.files, total: nil, bytes: totals.bytes, matches: totals.matches)
            }
        })
        Console.write(pending)
        // Files the index ruled out count as searched without a match.
        totals.files += summary.filesRuledOut
        totals.searched += summary.filesRuledOut
        totals.bytes += summary.bytesRuledOut
        let walked = summary.walk
        walked.errors.forEach(Console.error)
        if !walked.errors.isEmpty { failed = true }
        progress.finish()
        let elapsed = monotonicNanoseconds() - start
        if settings.mode == .json {
            Console.write(FindRun.summaryJSON(printed: totals.printed, bytesWithMatch: totals.bytesWithMatch, elapsed: elapsed,
                                              matchedLines: totals.lines, matches: totals.matches, searchesWithMatch: totals.withMatch))
        }
        if stats {
            Console.write("\(totals.searched) files searched, \(totals.bytes) bytes, \(totals.withMatch) files with matches, \(totals.matches) matches, \(totals.lines) matched lines, \(formatSeconds(elapsed))\(files.listsFiles ? ", files listed by the index" : "")\(files.usesWatcher ? ", changes from its watcher" : "")\n", to: 2)
        }
        if failed { return 2 }
        return totals.matches > 0 ? 0 : 1
    }

    /// Searches standard input (no path given and input piped, as ripgrep does).
    package func runOnStandardInput() -> Int32 {
        let matcher: any Matcher
        do { matcher = try pattern.makeMatcher() } catch {
            Console.error("\(error)")
            return 2
        }
        var settings = self.settings
        settings.withFilename = false
        let report = FindRun.search(FileContent.read(descriptor: .standardInput), display: DisplayPath(bytes: Array("<stdin>".utf8)),
                                    isExplicit: true, matcher: matcher, settings: settings)
        if let note = report.note { Console.error(note) }
        if let error = report.error { Console.error(error) }
        var pending: [UInt8] = []
        report.writeOut(after: &pending)
        Console.write(pending)
        if settings.mode == .json {
            let withMatch = report.matches > 0 ? 1 : 0
            Console.write(FindRun.summaryJSON(printed: report.bytesPrinted, bytesWithMatch: withMatch * report.bytes, elapsed: 0,
                                              matchedLines: report.matchedLines, matches: report.matches, searchesWithMatch: withMatch))
        }
        if report.error != nil { return 2 }
        return report.matches > 0 ? 0 : 1
    }

    /// ripgrep's JSON summary line. Its printer counts the searches it saw begin: those with a
    /// match (and their bytes).
    static func summaryJSON(printed: Int, bytesWithMatch: Int, elapsed: UInt64, matchedLines: Int, matches: Int,
                            searchesWithMatch: Int) -> [UInt8] {
        JSONWriter.line { writer in
            writer.object { writer in
                writer.member("data", object: { writer in
                    writer.key("elapsed_total")
                    writer.duration(nanoseconds: elapsed)
                    writer.member("stats", object: { writer in
                        writer.member("bytes_printed", printed)
                        writer.member("bytes_searched", bytesWithMatch)
                        writer.key("elapsed")
                        writer.duration(nanoseconds: elapsed)
                        writer.member("matched_lines", matchedLines)
                        writer.member("matches", matches)
                        writer.member("searches", searchesWithMatch)
                        writer.member("searches_with_match", searchesWithMatch)
                    })
                })
                writer.member("type", "summary")
            }
        }
    }

    static func search(_ file: WalkedFile, implicitRoot: Bool, matcher: any Matcher, settings: FindSettings) -> FileReport {
        let read = FileContent.read(file, for: .search(allowsMapping: true, allowsStreams: file.isExplicit, checksLater: true))
        return search(read, display: DisplayPath(file.path, implicitRoot: implicitRoot), isExplicit: file.isExplicit,
                      matcher: matcher, settings: settings)
    }

    static func search(_ read: Result<FileContent, FileSkip>, display: DisplayPath, isExplicit: Bool,
                       matcher: any Matcher, settings: FindSettings) -> FileReport {
        var report = FileReport()
        switch read {
        case .failure(.binary):
            if isExplicit { report.note = "\(display.text): binary file; skipped" }
        case .failure(.invalidUTF8(let offset)):
            // Searching is not an error for a file that cannot be searched as text: warn, go on.
            report.note = "\(display.text): not valid UTF-8 (first bad byte at offset \(offset)); skipped"
        case .failure(let skip) where skip.isNote:
            report.note = "\(display.text): \(skip)"
        case .failure(let skip):
            report.error = "\(display.text): \(skip)"
        case .success(let content) where !content.isChecked:
            // A large mapped file: tallied as it is checked, in one pass over memory, when the
            // matcher allows; otherwise checked first.
            guard let count = settings.mode.tallyCount, LineSearcher.canTallyWhileChecking(matcher) else {
                return search(content.checked(), display: display, isExplicit: isExplicit, matcher: matcher, settings: settings)
            }
            switch LineSearcher.tally(of: matcher, in: content, counting: count) {
            case .failure(let skip):
                return search(.failure(skip), display: display, isExplicit: isExplicit, matcher: matcher, settings: settings)
            case .success(.success(let tally)):
                report.bytes = content.text.utf8Count
                report.fileBytes = content.text.utf8Count + content.byteOrderMark.count
                report.writeTally(tally, display: display, settings: settings)
            case .success(.failure(let error)):
                report.error = "\(display.text): \(error)"
            }
        case .success(let content):
            do {
                report = try searchText(content.text, display: display, matcher: matcher, settings: settings)
                report.fileBytes = report.bytes + content.byteOrderMark.count
            } catch {
                report.error = "\(display.text): \(error)"
            }
            if content.changedWhileMapped {
                // What was read past the cut is not the file: report it, print nothing of it.
                report = FileReport()
                report.error = "\(display.text): the file shrank while it was searched; its results are left out"
            }
        }
        return report
    }
}

extension FileSkip {
    /// Skips that are worth a word but are not errors (the run goes on and its status is unchanged).
    var isNote: Bool {
        switch self {
        case .utf16, .notRegular, .binary, .invalidUTF8: true
        case .unreadable, .changedDuringRead: false
        }
    }
}
