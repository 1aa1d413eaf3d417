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

/// `trawl find`: walks, searches files in parallel, prints results in walk order.
public struct FindRun: Sendable {
    public var pattern: PatternOptions
    public var walk = WalkOptions()
    public var settings = FindSettings()
    public var paths: [FilePath] = []
    public var stats = false
    public var progress = false
    /// Use a tree's index (`ROOT/.trawl/index`) when there is one (`--no-index` turns it off).
    public var useIndex = true

    public init(pattern: PatternOptions) { self.pattern = pattern }

    /// A few small files are read on the calling thread: starting the worker threads took longer
    /// than reading them. At most this many files...
    static let filesSearchedInline = 8
    /// ... holding at most this many bytes together.
    static let bytesSearchedInline = 4 << 20

    /// Whether to search on the calling thread: `roots` are one path that is not a folder (one
    /// file is searched on one thread either way), or a few small regular files, or a watcher
    /// chose a few small files (`find` only: `replace` excludes its temporary files from the
    /// walk, and a watcher answers only a default walk). Named devices and FIFOs are read in
    /// parallel as before: one may wait for another to be read.
    static func searchesInline(_ roots: [FilePath], narrowing: TreeIndexNarrowing?) -> Bool {
        func isFewSmallFiles(_ paths: [FilePath]) -> Bool {
            guard paths.count <= filesSearchedInline else { return false }
            var bytes = 0
            for path in paths {
                guard case .success(let status) = path.status(), status.st_mode & S_IFMT == S_IFREG else { return false }
                bytes += Int(status.st_size)
            }
            return bytes <= bytesSearchedInline
        }
        if let served = narrowing?.servedFilesToRead(atMost: filesSearchedInline) { return isFewSmallFiles(served) }
        // (A watcher that chose more answers a search of one folder: not searched inline below.)
        if roots.count == 1, case .success(let status) = roots[0].status() { return status.st_mode & S_IFMT != S_IFDIR }
        return isFewSmallFiles(roots)
    }

    /// Runs the search; returns the exit code (0 found, 1 nothing found, 2 error).
    public func run() -> Int32 {
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
        let narrowing = useIndex ? TreeIndexNarrowing(roots: roots, query: matcher.literalQuery, options: walk) : nil
        narrowing?.problems.forEach(Console.error)
        let walker = Walker(options: walk)
        let handover = processInOrder(inline: FindRun.searchesInline(roots, narrowing: narrowing), produce: { visit in
            narrowing?.files(roots, walker: walker, visit: visit)
                ?? TreeIndexNarrowing.Handover(walk: walker.walk(roots) { visit(NarrowedFile($0)) })
        }, work: { (item: NarrowedFile) in
            if let size = item.sizeIfRuledOut() {
                // The index shows this unchanged file holds no match: not read, as if searched.
                var report = FileReport()
                report.bytes = size
                report.fileBytes = size
                return report
            }
            if let skip = item.recordedSkip {
                // The index's listing says why a search skips this unchanged file: said unread.
                return FindRun.search(.failure(skip), display: DisplayPath(item.file.path, implicitRoot: implicitRoot), isExplicit: false,
                                      matcher: matcher, settings: settings)
            }
            return FindRun.search(item.file, implicitRoot: implicitRoot, matcher: matcher, settings: settings)
        }, consume: { report in
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
        // Files the index ruled out without handing them over count as searched without a match.
        totals.files += handover.filesRuledOut
        totals.searched += handover.filesRuledOut
        totals.bytes += handover.bytesRuledOut
        let walked = handover.walk
        walked.errors.forEach(Console.error)
        if !walked.errors.isEmpty { failed = true }
        progress.finish()
        let elapsed = monotonicNanoseconds() - start
        if settings.mode == .json {
            Console.write(FindRun.summaryJSON(printed: totals.printed, bytesWithMatch: totals.bytesWithMatch, elapsed: elapsed,
                                              matchedLines: totals.lines, matches: totals.matches, searchesWithMatch: totals.withMatch))
        }
        if stats {
            Console.write("\(totals.searched) files searched, \(totals.bytes) bytes, \(totals.withMatch) files with matches, \(totals.matches) matches, \(totals.lines) matched lines, \(formatSeconds(elapsed))\(narrowing?.listsFiles == true ? ", files listed by the index" : "")\(narrowing?.usesWatcher == true ? ", changes from its watcher" : "")\n", to: 2)
        }
        if failed { return 2 }
        return totals.matches > 0 ? 0 : 1
    }

    /// Searches standard input (no path given and input piped, as ripgrep does).
    public func runOnStandardInput() -> Int32 {
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
            guard canTallyWhileChecking(matcher, mode: settings.mode) else {
                return search(content.checked(), display: display, isExplicit: isExplicit, matcher: matcher, settings: settings)
            }
            switch tallyMatches(of: matcher, in: content, mode: settings.mode) {
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
