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
import TrawlText
import TrawlConcurrency

/// `trawl replace`: plans replacements per file, then previews them as a diff (the default),
/// writes them atomically (`--write`), or asks per change (`--interactive`).
package struct ReplaceRun: Sendable {
    package enum Action: Sendable {
        case preview
        case write
        case interactive
    }

    package var pattern: FindQuery
    package var replacement: String
    package var preserveCase = false
    package var action = Action.preview
    package var json = false
    package var walk = WalkOptions()
    package var paths: [FilePath] = []
    /// Rewrite files with several hard links as files of their own.
    package var writePolicy = WritePolicy()
    /// Make every skipped file an error (exit status 2): binary, not UTF-8, UTF-16, not regular.
    package var strict = false
    package var style = Style(enabled: false)
    package var stats = false
    package var progress = false
    /// Use a tree's index (`ROOT/.trawl/`) when there is one: files it rules out are not read.
    package var useIndex = true

    package init(pattern: FindQuery, replacement: String) {
        self.pattern = pattern
        self.replacement = replacement
    }

    struct Outcome: Sendable {
        /// A large file left to the consuming thread, which streams its output in walk order.
        var deferred: WalkedFile?
        var output: [UInt8] = []
        var changes = 0
        var bytes = 0
        var errors: [String] = []
        var notes: [String] = []
    }

    /// Builds the matcher and the parsed template; reports problems and returns nil.
    func prepare() -> (any Matcher, ReplacementTemplate)? {
        do {
            let matcher = try pattern.makeMatcher()
            // With -F the replacement is inserted as typed (even for the empty pattern, which is
            // matched as the empty regex).
            if pattern.syntax == .literal {
                return (matcher, ReplacementTemplate(literal: replacement, preserveCase: preserveCase))
            }
            return (matcher, try matcher.template(replacement, preserveCase: preserveCase))
        } catch let error as MatchError {
            Console.error("\(error)")
        } catch {
            Console.error("\(error)")
        }
        return nil
    }

    /// Runs the replacement over files; returns the exit code (0 changes, 1 none, 2 error).
    package func run() -> Int32 {
        // The versions the writes displace are held to the end, so that writes a program that
        // had a file open made to them meanwhile are kept aside and reported, not lost.
        var holding = self
        let displaced = writePolicy.displacedFiles ?? DisplacedFiles()
        holding.writePolicy.displacedFiles = displaced
        let status = holding.replaceEverywhere()
        let problems = displaced.settle()
        problems.forEach(Console.error)
        return problems.isEmpty ? status : 2
    }

    private func replaceEverywhere() -> Int32 {
        guard let (matcher, template) = prepare() else { return 2 }
        let start = monotonicNanoseconds()
        let roots: [FilePath] = paths.isEmpty ? ["."] : paths
        let implicitRoot = paths.isEmpty
        var walk = self.walk
        // Temporary files of trawl's writes are never searched; those of runs that died are
        // removed when this run writes (so leftovers of several killed runs do not pile up).
        walk.excludes = FileReplacement.temporaryFileFilter(removingLeftovers: action != .preview, then: walk.excludes)
        var failed = false
        var totals = (files: 0, changes: 0, bytes: 0)
        var searched = 0
        let walked: Walker.Result
        var listsFiles = false
        if action == .interactive {
            // Questions come one at a time, in order: walk first, then go file by file.
            walked = Walker(options: walk).walk(roots)
            var session = InteractiveSession()
            for file in walked.files {
                let outcome = interactive(file, implicitRoot: implicitRoot, matcher: matcher, template: template, session: &session)
                report(outcome, totals: &totals, failed: &failed)
                searched += 1
                if session.quit { break }
            }
        } else {
            var progress = Progress(enabled: self.progress && Console.stderrIsTerminal)
            let run = self
            // With --strict every binary file is an error: each must be read.
            let files = IndexedFiles(roots, query: matcher.literalQuery, options: walk, usesIndex: useIndex, skipsBinaryFiles: !strict)
            files.problems.forEach(Console.error)
            listsFiles = files.listsFiles
            // (A skip the index recorded is found again by reading the file, and reported as a
            // rewrite reports it.)
            let summary = TreeSearch(files).run(searchingEach: { file, _ in
                if run.producesLargeOutput(file) { return Outcome(deferred: file) }
                return run.process(file, implicitRoot: implicitRoot, matcher: matcher, template: template)
            }, receive: { outcome in
                var outcome = outcome
                if let file = outcome.deferred {
                    // Printed as it is made, so memory does not grow with the size of the diff.
                    outcome = run.process(file, implicitRoot: implicitRoot, matcher: matcher, template: template) { Console.write($0) }
                }
                report(outcome, totals: &totals, failed: &failed)
                searched += 1
                if searched % 64 == 0 { progress.update(files: searched, total: nil, bytes: totals.bytes, matches: totals.changes) }
            })
            walked = summary.walk
            searched += summary.filesRuledOut
            totals.bytes += summary.bytesRuledOut
            progress.finish()
        }
        walked.errors.forEach(Console.error)
        if !walked.errors.isEmpty { failed = true }
        let verb = action == .preview ? "to change" : "changed"
        let summary = "\(totals.files) file\(totals.files == 1 ? "" : "s") \(verb), \(totals.changes) replacement\(totals.changes == 1 ? "" : "s")"
        if json {
            Console.write(JSONWriter.line { writer in
                writer.object { writer in
                    writer.member("type", "summary")
                    writer.member("data", object: { writer in
                        writer.member("files", totals.files)
                        writer.member("replacements", totals.changes)
                        writer.member("written", action != .preview)
                    })
                }
            })
        } else {
            Console.write(summary + (action == .preview && totals.changes > 0 ? " (preview: nothing written; add --write to apply)" : "") + "\n", to: 2)
        }
        if stats {
            Console.write("\(searched) files searched, \(totals.bytes) bytes, \(totals.changes) replacements, \(formatSeconds(monotonicNanoseconds() - start))\(listsFiles ? ", files listed by the index" : "")\n", to: 2)
        }
        if failed { return 2 }
        return totals.changes > 0 ? 0 : 1
    }

    private func report(_ outcome: Outcome, totals: inout (files: Int, changes: Int, bytes: Int), failed: inout Bool) {
        outcome.errors.forEach(Console.error)
        outcome.notes.forEach(Console.error)
        if !outcome.errors.isEmpty { failed = true }
        Console.write(outcome.output)
        if outcome.changes > 0 { totals.files += 1 }
        totals.changes += outcome.changes
        totals.bytes += outcome.bytes
    }

    /// Reads a file for rewriting, reporting why it was skipped when it was.
    private func load(_ file: WalkedFile, display: DisplayPath, outcome: inout Outcome) -> FileContent? {
        switch FileContent.read(file, for: .rewrite) {
        case .success(let content):
            outcome.bytes = content.text.utf8Count + content.byteOrderMark.count // as an index records it
            return content
        case .failure(.binary) where !file.isExplicit && !strict:
            return nil // binary files met in a walk are skipped silently, as in ripgrep
        case .failure(let skip) where skip.isNote && !strict:
            outcome.notes.append("\(display.text): \(skip)")
            return nil
        case .failure(let skip):
            outcome.errors.append("\(display.text): \(skip)")
            return nil
        }
    }

    /// Files at least this large whose preview or JSON may be large are processed one at a time,
    /// their output streamed.
    static let streamingThreshold = 32 << 20

    func producesLargeOutput(_ file: WalkedFile) -> Bool {
        guard action == .preview || json, case .success(let status) = file.path.status() else { return false }
        return Int(status.st_size) >= ReplaceRun.streamingThreshold
    }

    /// Plans, previews or writes the replacements of one file. Output goes to the outcome, or to
    /// `stream` a megabyte at a time when one is given.
    func process(_ file: WalkedFile, implicitRoot: Bool, matcher: any Matcher, template: ReplacementTemplate,
                 stream: (([UInt8]) -> Void)? = nil) -> Outcome {
        var outcome = Outcome()
        let display = DisplayPath(file.path, implicitRoot: implicitRoot)
        guard let content = load(file, display: display, outcome: &outcome) else { return outcome }
        func flush(_ bytes: inout [UInt8], force: Bool = false) {
            guard let stream, force || bytes.count >= 1 << 20 else { return }
            stream(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
        do {
            try content.text.withBytes { bytes in
                // One pass over the changes: each goes straight to the diff, the JSON lines or the
                // new file, so memory does not grow with the number of changes.
                func eachChange(_ body: (ReplacementPlan.Change) throws(MatchError) -> Void) throws(MatchError) {
                    try ReplacementPlan.forEachChange(matching: matcher, in: content.text, template: template, body)
                }
                func emitJSON(applied: Bool) throws(MatchError) {
                    var lines = LineLocator(bytes)
                    try eachChange { change in
                        let record = ChangeRecord(line: lines.lineNumber(change.range.lowerBound), range: change.range, replacement: change.replacement)
                        outcome.output += record.json(bytes, display: display, applied: applied)
                        flush(&outcome.output)
                        outcome.changes += 1
                    }
                }
                switch action {
                case .write:
                    do {
                        let (count, notes) = try FileReplacement(matcher: matcher, template: template, policy: writePolicy)
                            .apply(to: content, at: file)
                        outcome.notes += notes.map { "\(display.text): \($0)" }
                        if json { try emitJSON(applied: true) }
                        outcome.changes = count
                    } catch let error as MatchError {
                        throw error
                    } catch {
                        outcome.errors.append("\(display.text): \(error)")
                        // A refused write still lists what it would have changed, marked as not applied.
                        if json { try emitJSON(applied: false) }
                        outcome.changes = 0
                    }
                case .preview where json:
                    try emitJSON(applied: false)
                case .preview, .interactive:
                    var diff = UnifiedDiff(bytes, leading: content.byteOrderMark, path: display, style: style)
                    try eachChange { change in
                        diff.add(change.range, change.replacement)
                        outcome.changes += 1
                        if stream != nil, diff.pendingOutputCount >= 1 << 20 { outcome.output += diff.takeOutput(); flush(&outcome.output) }
                    }
                    diff.finish()
                    outcome.output += diff.takeOutput()
                }
            }
        } catch {
            outcome.errors.append("\(display.text): \(error); left untouched")
            outcome.changes = 0
        }
        flush(&outcome.output, force: true)
        return outcome
    }

    /// Filters standard input to standard output (no paths and stdin not a terminal, as sd does).
    package func filterStandardInput() -> Int32 {
        guard let (matcher, template) = prepare() else { return 2 }
        let input = Console.readStandardInput()
        let text: ContiguousText
        do {
            text = try ContiguousText(validating: input)
        } catch {
            Console.error("standard input: \(error); copied through unchanged")
            Console.write(input)
            return 2
        }
        do {
            let plan = try ReplacementPlan(matching: matcher, in: text, template: template)
            text.withBytes { plan.write($0) { Console.write($0) } }
            return plan.isEmpty ? 1 : 0
        } catch {
            Console.error("standard input: \(error); copied through unchanged")
            Console.write(input)
            return 2
        }
    }
}

/// The state of `--interactive` across files: whether to stop.
struct InteractiveSession {
    var quit = false
    private var answers: [UInt8] = []

    /// Asks and returns the first letter of the answer, read from standard input when it is piped
    /// (scripts, tests) and from the terminal otherwise.
    mutating func ask(_ question: String) -> Character {
        Console.write(question, to: 2)
        let descriptor = Console.stdinIsTerminal || !Console.stdinIsPipedData ? open("/dev/tty", O_RDONLY | O_CLOEXEC) : -1
        let input = descriptor >= 0 ? descriptor : 0
        defer { if descriptor >= 0 { close(descriptor) } }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while (try? withUnsafeMutableBytes(of: &byte, { try FileDescriptor(rawValue: input).read(into: $0) })) == 1 {
            if byte == 0x0A { break }
            line.append(byte)
        }
        if line.isEmpty && byte != 0x0A { return "q" } // end of input
        return String(decoding: line, as: UTF8.self).trimmingPrefix(" ").first.map { Character($0.lowercased()) } ?? "n"
    }
}

extension ReplaceRun {
    /// Shows each change of a file and asks: yes, no, all in this file, quit (like fastmod).
    fileprivate func interactive(_ file: WalkedFile, implicitRoot: Bool, matcher: any Matcher, template: ReplacementTemplate,
                                 session: inout InteractiveSession) -> Outcome {
        var outcome = Outcome()
        let display = DisplayPath(file.path, implicitRoot: implicitRoot)
        guard let content = load(file, display: display, outcome: &outcome) else { return outcome }
        let changes: [ReplacementPlan.Change]
        do {
            changes = try ReplacementPlan(matching: matcher, in: content.text, template: template).changes
        } catch {
            outcome.errors.append("\(display.text): \(error); left untouched")
            return outcome
        }
        var accepted: [ReplacementPlan.Change] = []
        content.text.withBytes { bytes in
            var acceptAll = false
            for change in changes {
                if !acceptAll {
                    var diff = UnifiedDiff(bytes, leading: content.byteOrderMark, path: display, style: style)
                    diff.add(change.range, change.replacement)
                    diff.finish()
                    Console.write(diff.takeOutput())
                    switch session.ask("Apply this change? [y]es [n]o [a]ll in this file [q]uit: ") {
                    case "y": accepted.append(change)
                    case "a": acceptAll = true; accepted.append(change)
                    case "q": session.quit = true
                    default: break
                    }
                    if session.quit { break }
                } else {
                    accepted.append(change)
                }
            }
            guard !accepted.isEmpty else { return }
            do {
                let notes = try AtomicFile.replace(file, expecting: content.snapshot, hash: content.hash!, policy: writePolicy) { writer in
                    try writer.write(content.byteOrderMark)
                    try ReplacementPlan(changes: accepted).write(bytes) { (piece) throws(WriteFailure) in try writer.write(piece) }
                }
                outcome.notes += notes.map { "\(display.text): \($0)" }
                outcome.changes = accepted.count
            } catch {
                outcome.errors.append("\(display.text): \(error)")
            }
        }
        return outcome
    }
}

/// A change to report as JSON once it is known whether it was written.
struct ChangeRecord {
    var line: Int
    var range: Range<Int>
    var replacement: [UInt8]

    /// One JSON line with the change's position and old and new text.
    func json(_ bytes: UnsafeBufferPointer<UInt8>, display: DisplayPath, applied: Bool) -> [UInt8] {
        JSONWriter.line { writer in
            writer.object { writer in
                writer.member("type", "change")
                writer.member("data", object: { writer in
                    writer.key("path")
                    display.writeJSON(to: &writer)
                    writer.member("line_number", line)
                    writer.member("absolute_offset", range.lowerBound)
                    writer.textMember("old", UnsafeBufferPointer(rebasing: bytes[range]))
                    writer.key("new")
                    writer.object { writer in
                        writer.key("text")
                        writer.string(replacement)
                    }
                    writer.member("applied", applied)
                })
            }
        }
    }
}
