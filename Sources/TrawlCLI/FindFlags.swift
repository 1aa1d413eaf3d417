/// The flags and options of `trawl find` (and those `replace` shares), in one table: names, help
/// and effect. `Sources/trawl` declares its ArgumentParser properties from these entries, and
/// ``FindArgumentsFastPath`` parses by them; `FindArgumentsTests` checks that both read every
/// entry the same way.
package enum FindFlags {
    // Flags that shape the pattern (ripgrep's names), shared by find and replace.
    package static let fixedStrings = CommandFlag<PatternSwitches>("F", "fixed-strings", "Treat the pattern as literal text, not a regex.") {
        $0.fixedStrings = true
    }
    package static let ignoreCase = CommandFlag<PatternSwitches>("i", "ignore-case", "Match case-insensitively (Unicode case folding).") {
        $0.ignoreCase = true
    }
    package static let smartCase = CommandFlag<PatternSwitches>("S", "smart-case", "Case-insensitive unless the pattern has an uppercase letter.") {
        $0.smartCase = true
    }
    package static let wordRegexp = CommandFlag<PatternSwitches>("w", "word-regexp", "Only match whole words.") { $0.wordRegexp = true }
    package static let multiline = CommandFlag<PatternSwitches>("U", "multiline", "Let matches span lines (\\s and [^x] can then match line breaks).") {
        $0.multiline = true
    }
    package static let pattern = [fixedStrings, ignoreCase, smartCase, wordRegexp, multiline]

    // Flags and options of the walk, shared by find and replace.
    package static let hidden = CommandFlag<WalkSwitches>(nil, "hidden", "Search hidden files and folders.") { $0.hidden = true }
    package static let noIgnore = CommandFlag<WalkSwitches>(nil, "no-ignore", "Ignore .gitignore, .ignore and .git/info/exclude.") {
        $0.noIgnore = true
    }
    package static let noRequireGit = CommandFlag<WalkSwitches>(nil, "no-require-git", "Apply .gitignore files outside git repositories too.") {
        $0.noRequireGit = true
    }
    package static let follow = CommandFlag<WalkSwitches>("L", "follow", "Follow symbolic links (loops and broken links are reported).") {
        $0.follow = true
    }
    package static let stats = CommandFlag<WalkSwitches>(nil, "stats", "Print statistics on stderr: files, bytes, matches, time.") {
        $0.stats = true
    }
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
    package static let count = CommandFlag<FindRequest>("c", "count", "Print the number of matching lines per file.") { $0.count = true }
    package static let countMatches = CommandFlag<FindRequest>(nil, "count-matches", "Print the number of matches per file.") {
        $0.countMatches = true
    }
    package static let filesWithMatches = CommandFlag<FindRequest>("l", "files-with-matches", "Print only the names of files with a match.") {
        $0.filesWithMatches = true
    }
    package static let lineNumber = CommandFlag<FindRequest>("n", "line-number", "Show line numbers (the default on a terminal).") {
        $0.lineNumber = true
    }
    package static let noLineNumber = CommandFlag<FindRequest>("N", "no-line-number", "Do not show line numbers.") { $0.noLineNumber = true }
    package static let json = CommandFlag<FindRequest>(nil, "json", "Print results as JSON Lines (ripgrep's format: begin, match, context, end, summary).") {
        $0.json = true
    }
    package static let noIndex = CommandFlag<FindRequest>(nil, "no-index", "Do not use a tree's index (ROOT/.trawl/) even when there is one.") {
        $0.noIndex = true
    }
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
