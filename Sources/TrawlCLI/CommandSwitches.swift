#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlFiles
import TrawlMatch

/// When to colour output (`--color`).
package enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never
}

/// The flags that shape the pattern, shared by find and replace (ripgrep's names), as plain values.
package struct PatternSwitches: Equatable, Sendable {
    /// `-F`: the pattern is literal text.
    package var fixedStrings = false
    /// `-i`: match case-insensitively.
    package var ignoreCase = false
    /// `-S`: case-insensitive unless the pattern has an uppercase letter.
    package var smartCase = false
    /// `-w`: whole words only.
    package var wordRegexp = false
    /// `-U`: matches may span lines.
    package var multiline = false

    /// Every switch off, as when none is given.
    package init() {}

    /// The options of `pattern` under these switches.
    package func options(_ pattern: String) -> FindQuery {
        var options = FindQuery(pattern: pattern, syntax: fixedStrings ? .literal : .regex)
        options.caseMode = ignoreCase ? .insensitive : smartCase ? .smart : .sensitive
        options.wholeWord = wordRegexp
        options.multiline = multiline
        return options
    }
}

/// The flags of the file walk, shared by find and replace, as plain values.
package struct WalkSwitches: Equatable, Sendable {
    /// `--hidden`: search hidden files and folders.
    package var hidden = false
    /// `--no-ignore`: ignore files do not apply.
    package var noIgnore = false
    /// `--no-require-git`: `.gitignore` applies outside repositories too.
    package var noRequireGit = false
    /// `-g`: include (or, with `!`, exclude) globs, in order.
    package var globs: [String] = []
    /// `--max-filesize`, as typed (`50K`, `10M`, `1G`).
    package var maxFilesize: String?
    /// `-L`: follow symbolic links.
    package var follow = false
    /// `--sort`, as typed (only `path` is valid).
    package var sort: String?
    /// `--stats`: print statistics on standard error.
    package var stats = false
    /// `--color`.
    package var color = ColorChoice.auto

    /// Every switch off, as when none is given.
    package init() {}

    /// Why these switches cannot be used, or nil when they can.
    package var problem: String? {
        if let maxFilesize, case .failure(let problem) = WalkSwitches.parseSize(maxFilesize) { return problem.message }
        if let sort, sort != "path" { return "--sort accepts only 'path'" }
        return nil
    }

    /// The walk's options; call only when `problem` is nil.
    package func options() -> WalkOptions {
        var options = WalkOptions()
        options.hidden = hidden
        options.noIgnore = noIgnore
        options.noRequireGit = noRequireGit
        options.globs = globs
        options.followLinks = follow
        if let maxFilesize, case .success(let bytes) = WalkSwitches.parseSize(maxFilesize) { options.maxFileSize = bytes }
        return options
    }

    /// Why a `--max-filesize` value cannot be read.
    package struct SizeProblem: Error {
        /// The message for the user.
        package let message: String
    }

    /// A size such as `50K`, `10M` or `1G` in bytes; too large a value is a usage error, not a crash.
    package static func parseSize(_ text: String) -> Result<Int, SizeProblem> {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text
        var multiplier = 1
        if let last = text.last?.uppercased().first, let unit = units[last] {
            multiplier = unit
            digits.removeLast()
        }
        guard let value = Int(digits), value >= 0 else {
            return .failure(SizeProblem(message: "invalid --max-filesize '\(text)': expected a number of bytes, optionally with K, M or G"))
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return .failure(SizeProblem(message: "--max-filesize '\(text)' is too large")) }
        return .success(bytes)
    }

    /// Whether output is coloured: `--color`, and for `auto` a terminal without `NO_COLOR` or
    /// `TERM=dumb`.
    package var colorEnabled: Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto:
            Console.stdoutIsTerminal && (environmentValue("NO_COLOR")?.isEmpty ?? true) && environmentValue("TERM") != "dumb"
        }
    }
}

func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
