import Dispatch
import TrawlMatch

/// `trawl find`: walks, searches files in parallel, prints results in walk order.
public struct FindRun: Sendable {
    public var pattern: PatternOptions
    public var walk = WalkOptions()
    public var settings = FindSettings()
    public var paths: [String] = []
    public var stats = false
    public var progress = false

    public init(pattern: PatternOptions) { self.pattern = pattern }

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
        var totals = (matches: 0, lines: 0, bytes: 0, searched: 0, withMatch: 0, files: 0)
        var pending: [UInt8] = []
        let walked = processInWalkOrder(Walker(options: walk), roots: paths.isEmpty ? ["."] : paths, work: { file in
            FindRun.search(file, implicitRoot: implicitRoot, matcher: matcher, settings: settings)
        }, consume: { report in
            if let error = report.error {
                Console.error(error)
                failed = true
            }
            if let note = report.note { Console.error(note) }
            pending += report.output
            totals.matches += report.matches
            totals.lines += report.matchedLines
            totals.bytes += report.bytes
            totals.files += 1
            if report.error == nil && report.note == nil { totals.searched += 1 }
            if report.matches > 0 { totals.withMatch += 1 }
            if pending.count >= 1 << 16 || totals.files % 64 == 0 {
                Console.write(pending)
                pending.removeAll(keepingCapacity: true)
                progress.update(files: totals.files, total: nil, bytes: totals.bytes, matches: totals.matches)
            }
        })
        Console.write(pending)
        walked.errors.forEach(Console.error)
        if !walked.errors.isEmpty { failed = true }
        progress.finish()
        let elapsed = monotonicNanoseconds() - start
        if settings.mode == .json {
            let statsJSON = "{\"bytes_printed\":0,\"bytes_searched\":\(totals.bytes),\"elapsed\":\(jsonDuration(nanoseconds: elapsed)),\"matched_lines\":\(totals.lines),\"matches\":\(totals.matches),\"searches\":\(totals.searched),\"searches_with_match\":\(totals.withMatch)}"
            Console.write("{\"data\":{\"elapsed_total\":\(jsonDuration(nanoseconds: elapsed)),\"stats\":\(statsJSON)},\"type\":\"summary\"}\n")
        }
        if stats {
            Console.write("\(totals.searched) files searched, \(totals.bytes) bytes, \(totals.withMatch) files with matches, \(totals.matches) matches, \(totals.lines) matched lines, \(formatSeconds(elapsed))\n", to: 2)
        }
        if failed { return 2 }
        return totals.matches > 0 ? 0 : 1
    }

    /// How a walked path is shown: without the `./` of an implicit root.
    static func display(_ path: String, implicitRoot: Bool) -> String {
        implicitRoot && path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    static func search(_ file: WalkedFile, implicitRoot: Bool, matcher: any Matcher, settings: FindSettings) -> FileReport {
        let display = display(file.path, implicitRoot: implicitRoot)
        switch FileContent.read(path: file.path, allowMapping: true) {
        case .failure(.binary):
            var report = FileReport()
            if file.isExplicit { report.note = "\(display): binary file; skipped" }
            return report
        case .failure(.invalidUTF8(let offset)):
            // Searching is not an error for a file that cannot be searched as text: warn, go on.
            var report = FileReport()
            report.note = "\(display): not valid UTF-8 (first bad byte at offset \(offset)); skipped"
            return report
        case .failure(let skip):
            var report = FileReport()
            report.error = "\(display): \(skip)"
            return report
        case .success(let content):
            do {
                return try searchText(content.text, display: display, matcher: matcher, settings: settings)
            } catch {
                var report = FileReport()
                report.error = "\(display): \(error)"
                return report
            }
        }
    }
}
