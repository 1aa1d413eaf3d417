#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TrawlMatch

/// `trawl replace`: plans replacements per file, then previews them as a diff (the default),
/// writes them atomically (`--write`), or asks per change (`--interactive`).
public struct ReplaceRun: Sendable {
    public enum Action: Sendable {
        case preview
        case write
        case interactive
    }

    public var pattern: PatternOptions
    public var replacement: String
    public var preserveCase = false
    public var action = Action.preview
    public var json = false
    public var walk = WalkOptions()
    public var paths: [String] = []
    public var style = Style(enabled: false)
    public var stats = false
    public var progress = false

    public init(pattern: PatternOptions, replacement: String) {
        self.pattern = pattern
        self.replacement = replacement
    }

    struct Outcome: Sendable {
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
            if let regex = matcher as? RegexMatcher {
                return (regex, try regex.template(replacement, preserveCase: preserveCase))
            }
            return (matcher, ReplacementTemplate(literal: replacement, preserveCase: preserveCase))
        } catch let error as MatchError {
            Console.error("\(error)")
        } catch {
            Console.error("\(error)")
        }
        return nil
    }

    /// Runs the replacement over files; returns the exit code (0 changes, 1 none, 2 error).
    public func run() -> Int32 {
        guard let (matcher, template) = prepare() else { return 2 }
        let start = monotonicNanoseconds()
        let roots = paths.isEmpty ? ["."] : paths
        let implicitRoot = paths.isEmpty
        var failed = false
        var totals = (files: 0, changes: 0, bytes: 0)
        var searched = 0
        let walked: Walker.Result
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
            walked = processInWalkOrder(Walker(options: walk), roots: roots, work: { file in
                run.process(file, implicitRoot: implicitRoot, matcher: matcher, template: template)
            }, consume: { outcome in
                report(outcome, totals: &totals, failed: &failed)
                searched += 1
                if searched % 64 == 0 { progress.update(files: searched, total: nil, bytes: totals.bytes, matches: totals.changes) }
            })
            progress.finish()
        }
        walked.errors.forEach(Console.error)
        if !walked.errors.isEmpty { failed = true }
        if action == .write {
            // Leftovers of killed runs (their process is gone).
            for stale in walked.staleTemporaries { unlink(stale) }
        }
        let verb = action == .preview ? "to change" : "changed"
        let summary = "\(totals.files) file\(totals.files == 1 ? "" : "s") \(verb), \(totals.changes) replacement\(totals.changes == 1 ? "" : "s")"
        if json {
            Console.write("{\"type\":\"summary\",\"data\":{\"files\":\(totals.files),\"replacements\":\(totals.changes),\"written\":\(action != .preview)}}\n")
        } else {
            Console.write(summary + (action == .preview && totals.changes > 0 ? " (preview: nothing written; add --write to apply)" : "") + "\n", to: 2)
        }
        if stats {
            Console.write("\(searched) files searched, \(totals.bytes) bytes, \(totals.changes) replacements, \(formatSeconds(monotonicNanoseconds() - start))\n", to: 2)
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

    /// Reads a file and plans its changes, reporting why it was skipped when it was.
    private func load(_ file: WalkedFile, display: String, matcher: any Matcher, template: ReplacementTemplate,
                      outcome: inout Outcome) -> (FileContent, [PlannedChange])? {
        switch FileContent.read(path: file.path) {
        case .failure(.binary):
            if file.isExplicit { outcome.notes.append("\(display): binary file; skipped, left untouched") }
            return nil
        case .failure(let skip):
            outcome.errors.append("\(display): \(skip)")
            return nil
        case .success(let content):
            outcome.bytes = content.text.utf8Count
            do {
                let changes = try planChanges(in: content.text, matcher: matcher, template: template)
                return changes.isEmpty ? nil : (content, changes)
            } catch {
                outcome.errors.append("\(display): \(error); left untouched")
                return nil
            }
        }
    }

    func process(_ file: WalkedFile, implicitRoot: Bool, matcher: any Matcher, template: ReplacementTemplate) -> Outcome {
        var outcome = Outcome()
        let display = FindRun.display(file.path, implicitRoot: implicitRoot)
        guard let (content, changes) = load(file, display: display, matcher: matcher, template: template, outcome: &outcome) else {
            return outcome
        }
        content.text.withBytes { bytes in
            if json {
                outcome.output += Array(jsonChanges(bytes, changes, display: display, applied: action == .write).utf8)
            } else if action == .preview {
                outcome.output += Array(unifiedDiff(bytes, changes, display: display, style: style).utf8)
            }
            if action == .write {
                do {
                    try AtomicFile.replace(path: file.path, with: applyChanges(bytes, changes), snapshot: content.snapshot,
                                           hash: contentHash(bytes))
                    outcome.changes = changes.count
                } catch {
                    outcome.errors.append("\(display): \(error)")
                }
            } else {
                outcome.changes = changes.count
            }
        }
        return outcome
    }

    /// One JSON line per change, with its position and old and new text.
    func jsonChanges(_ bytes: UnsafeBufferPointer<UInt8>, _ changes: [PlannedChange], display: String, applied: Bool) -> String {
        var lines = LineLocator(bytes)
        var output = ""
        for change in changes {
            let line = lines.lineNumber(change.range.lowerBound)
            output += "{\"type\":\"change\",\"data\":{\"path\":{\"text\":\(jsonString(display))},\"line_number\":\(line),\"absolute_offset\":\(change.range.lowerBound),\"old\":{\"text\":\(jsonString(bytes[change.range]))},\"new\":{\"text\":\(jsonString(change.replacement))},\"applied\":\(applied)}}\n"
        }
        return output
    }

    /// Filters standard input to standard output (no paths and stdin not a terminal, as sd does).
    public func filterStandardInput() -> Int32 {
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
            let changes = try planChanges(in: text, matcher: matcher, template: template)
            Console.write(text.withBytes { applyChanges($0, changes) })
            return changes.isEmpty ? 1 : 0
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
        while systemRead(input, &byte, 1) == 1 {
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
        let display = FindRun.display(file.path, implicitRoot: implicitRoot)
        guard let (content, changes) = load(file, display: display, matcher: matcher, template: template, outcome: &outcome) else {
            return outcome
        }
        var accepted: [PlannedChange] = []
        content.text.withBytes { bytes in
            var acceptAll = false
            for change in changes {
                if !acceptAll {
                    Console.write(unifiedDiff(bytes, [change], display: display, style: style))
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
                try AtomicFile.replace(path: file.path, with: applyChanges(bytes, accepted), snapshot: content.snapshot, hash: contentHash(bytes))
                outcome.changes = accepted.count
            } catch {
                outcome.errors.append("\(display): \(error)")
            }
        }
        return outcome
    }
}
