/// What `trawl find` was asked for, as plain values. The ArgumentParser command and the start-up
/// fast path (`FindArgumentsFastPath`) both produce one, so both run the same code.
public struct FindRequest: Equatable, Sendable {
    /// The pattern, as typed.
    public var pattern: String
    /// The files and folders to search, as typed (none: standard input when piped, else `.`).
    public var paths: [String] = []
    /// The switches that shape the pattern.
    public var patternSwitches = PatternSwitches()
    /// The switches of the file walk and the output's colour and statistics.
    public var walkSwitches = WalkSwitches()
    /// `-c`: the number of matching lines per file.
    public var count = false
    /// `--count-matches`: the number of matches per file.
    public var countMatches = false
    /// `-l`: only the names of files with a match.
    public var filesWithMatches = false
    /// `-n`: line numbers.
    public var lineNumber = false
    /// `-N`: no line numbers.
    public var noLineNumber = false
    /// `-A`: lines shown after each match.
    public var afterContext: Int?
    /// `-B`: lines shown before each match.
    public var beforeContext: Int?
    /// `-C`: lines shown before and after each match.
    public var context: Int?
    /// `--json`: ripgrep's JSON Lines.
    public var json = false
    /// `--no-index`: never use a tree's index.
    public var noIndex = false

    /// A request for `pattern` with every switch off.
    public init(pattern: String) { self.pattern = pattern }

    /// Why this request cannot run, or nil when it can.
    public var problem: String? {
        // Checked one by one: an array of (name, value) tuples made its type's metadata at every start.
        func negative(_ name: String, _ value: Int?) -> String? {
            guard let value, value < 0 else { return nil }
            return "\(name) takes a number of lines, not \(value)"
        }
        return negative("-A", afterContext) ?? negative("-B", beforeContext) ?? negative("-C", context) ?? walkSwitches.problem
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
