/// What `trawl find` was asked for, as plain values. The ArgumentParser command and the start-up
/// fast path (`FindArgumentsFastPath`) both produce one, so both run the same code.
public struct FindRequest: Equatable, Sendable {
    public var pattern: String
    public var paths: [String] = []
    public var patternSwitches = PatternSwitches()
    public var walkSwitches = WalkSwitches()
    public var count = false
    public var countMatches = false
    public var filesWithMatches = false
    public var lineNumber = false
    public var noLineNumber = false
    public var afterContext: Int?
    public var beforeContext: Int?
    public var context: Int?
    public var json = false
    public var noIndex = false

    public init(pattern: String) { self.pattern = pattern }

    /// Why this request cannot run, or nil when it can.
    public var problem: String? {
        for (name, value) in [("-A", afterContext), ("-B", beforeContext), ("-C", context)] {
            if let value, value < 0 { return "\(name) takes a number of lines, not \(value)" }
        }
        return walkSwitches.problem
    }

    /// Runs the search; returns the exit status (0 found, 1 nothing found, 2 error). Call only
    /// when `problem` is nil.
    public func run() -> Int32 {
        var run = FindRun(pattern: patternSwitches.options(pattern))
        run.useIndex = !noIndex
        run.walk = walkSwitches.options()
        run.paths = paths.map(commandLinePath)
        run.stats = walkSwitches.stats
        run.progress = true
        var settings = FindSettings()
        // In multiline mode a match may span lines, and -c counts matches (as ripgrep does).
        let countLines: FindMode = patternSwitches.multiline ? .countMatches : .countLines
        settings.mode = json ? .json : filesWithMatches ? .filesWithMatches : countMatches ? .countMatches : count ? countLines : .lines
        let terminal = Console.stdoutIsTerminal
        settings.lineNumbers = noLineNumber ? false : (lineNumber || terminal)
        settings.heading = terminal
        settings.style = Style(enabled: walkSwitches.colorEnabled && !json)
        // A single file named on the command line prints no file name, as grep and ripgrep do.
        settings.withFilename = !(paths.count == 1 && isRegularFile(run.paths[0]))
        settings.before = beforeContext ?? context ?? 0
        settings.after = afterContext ?? context ?? 0
        settings.countsEveryMatch = walkSwitches.stats
        run.settings = settings
        if paths.isEmpty && Console.stdinIsPipedData {
            return run.runOnStandardInput()
        }
        return run.run()
    }
}
