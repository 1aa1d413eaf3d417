/// The flags and options of `trawl find` (and those `replace` shares), in one table: names, help
/// and effect. `Sources/trawl` declares its ArgumentParser properties from these entries, and
/// ``FindArgumentsFastPath`` parses by them; `FindArgumentsTests` checks that both read every
/// entry the same way.
package enum FindFlags {
    // Flags that shape the pattern (ripgrep's names), shared by find and replace.
    package static let fixedStrings = CommandFlag<PatternSwitches>(
        "F", "fixed-strings", "Treat the pattern as literal text, not a regex.", turnsOn: \.fixedStrings
    )
    package static let ignoreCase = CommandFlag<PatternSwitches>(
        "i", "ignore-case", "Match case-insensitively (Unicode case folding).", turnsOn: \.ignoreCase
    )
    package static let smartCase = CommandFlag<PatternSwitches>(
        "S", "smart-case", "Case-insensitive unless the pattern has an uppercase letter.", turnsOn: \.smartCase
    )
    package static let wordRegexp = CommandFlag<PatternSwitches>(
        "w", "word-regexp", "Only match whole words.", turnsOn: \.wordRegexp
    )
    package static let multiline = CommandFlag<PatternSwitches>(
        "U", "multiline", "Let matches span lines (\\s and [^x] can then match line breaks).", turnsOn: \.multiline
    )
    package static let pattern = [fixedStrings, ignoreCase, smartCase, wordRegexp, multiline]

    // Flags and options of the walk, shared by find and replace.
    package static let hidden = CommandFlag<WalkSwitches>(
        nil, "hidden", "Search hidden files and folders.", turnsOn: \.hidden
    )
    package static let noIgnore = CommandFlag<WalkSwitches>(
        nil, "no-ignore", "Ignore .gitignore, .ignore and .git/info/exclude.", turnsOn: \.noIgnore
    )
    package static let noRequireGit = CommandFlag<WalkSwitches>(
        nil, "no-require-git", "Apply .gitignore files outside git repositories too.", turnsOn: \.noRequireGit
    )
    package static let follow = CommandFlag<WalkSwitches>(
        "L", "follow", "Follow symbolic links (loops and broken links are reported).", turnsOn: \.follow
    )
    package static let stats = CommandFlag<WalkSwitches>(
        nil, "stats", "Print statistics on stderr: files, bytes, matches, time.", turnsOn: \.stats
    )
    package static let walk = [hidden, noIgnore, noRequireGit, follow, stats]

    package static let glob = CommandOption<WalkSwitches>("g", "glob", "Include files matching GLOB; !GLOB excludes; {a,b} alternatives. Repeatable.") {
        $0.globs.append($1)
        return true
    }
    package static let maxFilesize = CommandOption<WalkSwitches>(nil, "max-filesize", "Skip files larger than this (e.g. 50K, 10M, 1G).") {
        $0.maxFilesize = $1
        return true
    }
    package static let sort = CommandOption<WalkSwitches>(nil, "sort", "Sort the output (only 'path'; output is always in path order).") {
        $0.sort = $1
        return true
    }
    package static let color = CommandOption<WalkSwitches>(nil, "color", "When to colour output: auto (terminal, unless NO_COLOR), always, never.") {
        guard let color = ColorChoice(rawValue: $1) else { return false }
        $0.color = color
        return true
    }
    package static let walkOptions = [glob, maxFilesize, sort, color]

    // Flags and options of find alone.
    package static let count = CommandFlag<FindRequest>(
        "c", "count", "Print the number of matching lines per file.", turnsOn: \.count
    )
    package static let countMatches = CommandFlag<FindRequest>(
        nil, "count-matches", "Print the number of matches per file.", turnsOn: \.countMatches
    )
    package static let filesWithMatches = CommandFlag<FindRequest>(
        "l", "files-with-matches", "Print only the names of files with a match.", turnsOn: \.filesWithMatches
    )
    package static let lineNumber = CommandFlag<FindRequest>(
        "n", "line-number", "Show line numbers (the default on a terminal).", turnsOn: \.lineNumber
    )
    package static let noLineNumber = CommandFlag<FindRequest>(
        "N", "no-line-number", "Do not show line numbers.", turnsOn: \.noLineNumber
    )
    package static let json = CommandFlag<FindRequest>(
        nil, "json", "Print results as JSON Lines (ripgrep's format: begin, match, context, end, summary).", turnsOn: \.json
    )
    package static let noIndex = CommandFlag<FindRequest>(
        nil, "no-index", "Do not use a tree's index (ROOT/.trawl/) even when there is one.", turnsOn: \.noIndex
    )
    package static let find = [count, countMatches, filesWithMatches, lineNumber, noLineNumber, json, noIndex]

    package static let afterContext = CommandOption<FindRequest>("A", "after-context", "Show NUM lines after each match.", joinsShort: true) {
        guard let lines = FindFlags.lineCount($1) else { return false }
        $0.afterContext = lines
        return true
    }
    package static let beforeContext = CommandOption<FindRequest>("B", "before-context", "Show NUM lines before each match.", joinsShort: true) {
        guard let lines = FindFlags.lineCount($1) else { return false }
        $0.beforeContext = lines
        return true
    }
    package static let context = CommandOption<FindRequest>("C", "context", "Show NUM lines before and after each match.", joinsShort: true) {
        guard let lines = FindFlags.lineCount($1) else { return false }
        $0.context = lines
        return true
    }
    package static let findOptions = [afterContext, beforeContext, context]

    /// A number of lines as the fast path reads it: digits only (a sign, spaces or an overflow
    /// are left to ArgumentParser's messages).
    static func lineCount(_ value: String) -> Int? {
        guard !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(value)
    }
}
