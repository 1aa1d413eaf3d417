#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrawlFiles

/// When to colour output (`--color`).
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never
}

/// The flags that shape the pattern, shared by find and replace (ripgrep's names), as plain values.
public struct PatternSwitches: Equatable, Sendable {
    public var fixedStrings = false
    public var ignoreCase = false
    public var smartCase = false
    public var wordRegexp = false
    public var multiline = false

    public init() {}

    public func options(_ pattern: String) -> PatternOptions {
        var options = PatternOptions(pattern: pattern)
        options.fixedStrings = fixedStrings
        options.caseMode = ignoreCase ? .insensitive : smartCase ? .smart : .sensitive
        options.wholeWord = wordRegexp
        options.multiline = multiline
        return options
    }
}

/// The flags of the file walk, shared by find and replace, as plain values.
public struct WalkSwitches: Equatable, Sendable {
    public var hidden = false
    public var noIgnore = false
    public var noRequireGit = false
    public var globs: [String] = []
    public var maxFilesize: String?
    public var follow = false
    public var sort: String?
    public var stats = false
    public var color = ColorChoice.auto

    public init() {}

    /// Why these switches cannot be used, or nil when they can.
    public var problem: String? {
        if let maxFilesize, case .failure(let problem) = WalkSwitches.parseSize(maxFilesize) { return problem.message }
        if let sort, sort != "path" { return "--sort accepts only 'path'" }
        return nil
    }

    /// The walk's options; call only when `problem` is nil.
    public func options() -> WalkOptions {
        var options = WalkOptions()
        options.hidden = hidden
        options.noIgnore = noIgnore
        options.noRequireGit = noRequireGit
        options.globs = globs
        options.followLinks = follow
        if let maxFilesize, case .success(let bytes) = WalkSwitches.parseSize(maxFilesize) { options.maxFileSize = bytes }
        return options
    }

    public struct SizeProblem: Error {
        public let message: String
    }

    /// A size such as `50K`, `10M` or `1G` in bytes; too large a value is a usage error, not a crash.
    public static func parseSize(_ text: String) -> Result<Int, SizeProblem> {
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

    public var colorEnabled: Bool {
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
