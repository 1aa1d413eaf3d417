/// What `trawl find` was asked for, as plain values. The ArgumentParser command and the start-up
/// fast path (`FindArgumentsFastPath`) both produce one, so both run the same code.
package struct FindRequest: Equatable, Sendable {
    /// The pattern, as typed.
    package var pattern: String
    /// The files and folders to search, as typed (none: standard input when piped, else `.`).
    package var paths: [String] = []
    /// The switches that shape the pattern.
    package var patternSwitches = PatternSwitches()
    /// The switches of the file walk and the output's colour and statistics.
    package var walkSwitches = WalkSwitches()
    /// `-c`: the number of matching lines per file.
    package var count = false
    /// `--count-matches`: the number of matches per file.
    package var countMatches = false
    /// `-l`: only the names of files with a match.
    package var filesWithMatches = false
    /// `-n`: line numbers.
    package var lineNumber = false
    /// `-N`: no line numbers.
    package var noLineNumber = false
    /// `-A`: lines shown after each match.
    package var afterContext: Int?
    /// `-B`: lines shown before each match.
    package var beforeContext: Int?
    /// `-C`: lines shown before and after each match.
    package var context: Int?
    /// `--json`: ripgrep's JSON Lines.
    package var json = false
    /// `--no-index`: never use a tree's index.
    package var noIndex = false

    /// A request for `pattern` with every switch off.
    package init(pattern: String) { self.pattern = pattern }

    /// Why this request cannot run, or nil when it can.
    package var problem: String? {
        // Checked one by one: an array of (name, value) tuples made its type's metadata at every start.
        func negative(_ name: String, _ value: Int?) -> String? {
            guard let value, value < 0 else { return nil }
            return "\(name) takes a number of lines, not \(value)"
        }
        return negative("-A", afterContext) ?? negative("-B", beforeContext) ?? negative("-C", context) ?? walkSwitches.problem
    }

    /// Runs the search; returns the exit status (0 found, 1 nothing found, 2 error). Call only
    /// when `problem` is nil.
    package func run() -> Int32 {
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
