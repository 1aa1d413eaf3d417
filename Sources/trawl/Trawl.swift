#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SystemPackage
import TrawlCLI
import TrawlCatalog
import TrawlFiles
import TrawlMatch

@main
struct TrawlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trawl",
        abstract: "Search and batch-replace across a tree of files (PCRE2 regex or literal text).",
        discussion: "Exit status: 0 when something matched (or changed), 1 when nothing did, 2 on an error (usage errors included).",
        subcommands: [Find.self, Replace.self, Index.self, CatalogCommand.self]
    )

    /// Runs the command; usage errors exit with status 2 (as grep and ripgrep do), not 64.
    static func main() {
        // The usual find command lines skip ArgumentParser's start-up (see FindArgumentsFastPath).
        if let request = FindArgumentsFastPath.parse(Array(CommandLine.arguments.dropFirst())) {
            PlatformCalls.exit(request.run())
        }
        if let run = IndexArgumentsFastPath.parse(Array(CommandLine.arguments.dropFirst())) {
            PlatformCalls.exit(run.run())
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            PlatformCalls.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                Console.write(message + "\n")
                PlatformCalls.exit(0)
            }
            Console.write(message + "\n", to: 2)
            PlatformCalls.exit(2)
        }
    }
}

extension ColorChoice: ExpressibleByArgument {}

extension CommandFlag {
    /// The names ArgumentParser declares for the flag.
    var names: NameSpecification { short.map { [.customShort($0), .customLong(long)] } ?? [.customLong(long)] }
    var argumentHelp: ArgumentHelp { ArgumentHelp(stringLiteral: help) }
}

extension CommandOption {
    /// The names ArgumentParser declares for the option.
    var names: NameSpecification {
        short.map { [.customShort($0, allowingJoined: joinsShort), .customLong(long)] } ?? [.customLong(long)]
    }
    var argumentHelp: ArgumentHelp { ArgumentHelp(stringLiteral: help) }
}

/// Flags that shape the pattern, shared by find and replace (names, help and effect: `FindFlags`).
struct PatternFlags: ParsableArguments {
    @Flag(name: FindFlags.fixedStrings.names, help: FindFlags.fixedStrings.argumentHelp) var fixedStrings = false
    @Flag(name: FindFlags.ignoreCase.names, help: FindFlags.ignoreCase.argumentHelp) var ignoreCase = false
    @Flag(name: FindFlags.smartCase.names, help: FindFlags.smartCase.argumentHelp) var smartCase = false
    @Flag(name: FindFlags.wordRegexp.names, help: FindFlags.wordRegexp.argumentHelp) var wordRegexp = false
    @Flag(name: FindFlags.multiline.names, help: FindFlags.multiline.argumentHelp) var multiline = false

    var switches: PatternSwitches {
        var switches = PatternSwitches()
        let given = [(FindFlags.fixedStrings, fixedStrings), (FindFlags.ignoreCase, ignoreCase), (FindFlags.smartCase, smartCase),
                     (FindFlags.wordRegexp, wordRegexp), (FindFlags.multiline, multiline)]
        for (flag, isGiven) in given where isGiven { flag.set(&switches) }
        return switches
    }

    func options(_ pattern: String) -> FindQuery { switches.options(pattern) }
}

/// Flags of the file walk, shared by find and replace (names, help and effect: `FindFlags`).
struct WalkFlags: ParsableArguments {
    @Flag(name: FindFlags.hidden.names, help: FindFlags.hidden.argumentHelp) var hidden = false
    @Flag(name: FindFlags.noIgnore.names, help: FindFlags.noIgnore.argumentHelp) var noIgnore = false
    @Flag(name: FindFlags.noRequireGit.names, help: FindFlags.noRequireGit.argumentHelp) var noRequireGit = false
    @Flag(name: FindFlags.follow.names, help: FindFlags.follow.argumentHelp) var follow = false
    @Flag(name: FindFlags.stats.names, help: FindFlags.stats.argumentHelp) var stats = false
    @Option(name: FindFlags.glob.names, help: FindFlags.glob.argumentHelp) var glob: [String] = []
    @Option(name: FindFlags.maxFilesize.names, help: FindFlags.maxFilesize.argumentHelp) var maxFilesize: String?
    @Option(name: FindFlags.sort.names, help: FindFlags.sort.argumentHelp) var sort: String?
    @Option(name: FindFlags.color.names, help: FindFlags.color.argumentHelp) var color: ColorChoice = .auto

    var switches: WalkSwitches {
        var switches = WalkSwitches()
        let given = [(FindFlags.hidden, hidden), (FindFlags.noIgnore, noIgnore), (FindFlags.noRequireGit, noRequireGit),
                     (FindFlags.follow, follow), (FindFlags.stats, stats)]
        for (flag, isGiven) in given where isGiven { flag.set(&switches) }
        switches.globs = glob
        switches.maxFilesize = maxFilesize
        switches.sort = sort
        switches.color = color
        return switches
    }

    func validate() throws {
        if let problem = switches.problem { throw ValidationError(problem) }
    }

    func options() -> WalkOptions { switches.options() }

    var colorEnabled: Bool { switches.colorEnabled }
}

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print lines that match a pattern.",
        discussion: "With no PATH and piped input, searches standard input."
    )

    @Argument(help: "A PCRE2 regex (or literal text with -F).")
    var pattern: String
    @Argument(help: "Files or folders to search (default: standard input when it is piped, else the current folder).")
    var paths: [String] = []
    @OptionGroup var patternFlags: PatternFlags
    @OptionGroup var walkFlags: WalkFlags

    @Flag(name: FindFlags.count.names, help: FindFlags.count.argumentHelp) var count = false
    @Flag(name: FindFlags.countMatches.names, help: FindFlags.countMatches.argumentHelp) var countMatches = false
    @Flag(name: FindFlags.filesWithMatches.names, help: FindFlags.filesWithMatches.argumentHelp) var filesWithMatches = false
    @Flag(name: FindFlags.lineNumber.names, help: FindFlags.lineNumber.argumentHelp) var lineNumber = false
    @Flag(name: FindFlags.noLineNumber.names, help: FindFlags.noLineNumber.argumentHelp) var noLineNumber = false
    @Flag(name: FindFlags.json.names, help: FindFlags.json.argumentHelp) var json = false
    @Flag(name: FindFlags.noIndex.names, help: FindFlags.noIndex.argumentHelp) var noIndex = false
    @Option(name: FindFlags.afterContext.names, help: FindFlags.afterContext.argumentHelp) var afterContext: Int?
    @Option(name: FindFlags.beforeContext.names, help: FindFlags.beforeContext.argumentHelp) var beforeContext: Int?
    @Option(name: FindFlags.context.names, help: FindFlags.context.argumentHelp) var context: Int?

    var request: FindRequest {
        var request = FindRequest(pattern: pattern)
        request.paths = paths
        request.patternSwitches = patternFlags.switches
        request.walkSwitches = walkFlags.switches
        let given = [(FindFlags.count, count), (FindFlags.countMatches, countMatches), (FindFlags.filesWithMatches, filesWithMatches),
                     (FindFlags.lineNumber, lineNumber), (FindFlags.noLineNumber, noLineNumber), (FindFlags.json, json),
                     (FindFlags.noIndex, noIndex)]
        for (flag, isGiven) in given where isGiven { flag.set(&request) }
        request.afterContext = afterContext
        request.beforeContext = beforeContext
        request.context = context
        return request
    }

    func validate() throws {
        if let problem = request.problem { throw ValidationError(problem) }
    }

    func run() throws {
        throw ExitCode(request.run())
    }
}

struct Replace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replace matches in files: a diff preview by default, --write to apply.",
        discussion: """
        Templates (regex mode): $0 or $& (whole match), $1…$99, ${name}, ${12}, $$ (a dollar), \\n \\t \\\\, and case
        operators \\u \\l (next character), \\U \\L (up to the end of the next group). With -F the replacement is inserted
        as typed. With no PATH and piped input, filters standard input to standard output.

        Only regular files are written, each atomically and never over a change made since it was read. Files that are
        binary, not UTF-8 or UTF-16 are skipped with a note (exit status 2 with --strict).
        """
    )

    @Argument(help: "A PCRE2 regex (or literal text with -F).")
    var pattern: String
    @Argument(help: "The replacement template.")
    var replacement: String
    @Argument(help: "Files or folders (default: the current folder, or standard input when it is piped).")
    var paths: [String] = []
    @OptionGroup var patternFlags: PatternFlags
    @OptionGroup var walkFlags: WalkFlags

    @Flag(help: "Write the changes (atomically, file by file).")
    var write = false
    @Flag(help: "Ask before each change: yes, no, all in this file, quit.")
    var interactive = false
    @Flag(help: "Report every planned (or made) change as JSON Lines.")
    var json = false
    @Flag(name: .customLong("preserve-case"), help: "Give static replacements the case of the text they replace.")
    var preserveCase = false
    @Flag(name: .customLong("break-hardlinks"), help: "Rewrite a file with several hard links as a file of its own (its other names keep the old text).")
    var breakHardlinks = false
    @Flag(help: "Treat every skipped file (binary, not UTF-8, UTF-16, not a regular file) as an error.")
    var strict = false
    @Flag(name: FindFlags.noIndex.names, help: FindFlags.noIndex.argumentHelp)
    var noIndex = false

    func validate() throws {
        if write && interactive { throw ValidationError("--write and --interactive cannot be combined") }
        if interactive && json { throw ValidationError("--interactive and --json cannot be combined") }
    }

    func run() throws {
        var run = ReplaceRun(pattern: patternFlags.options(pattern), replacement: replacement)
        run.preserveCase = preserveCase
        run.useIndex = !noIndex
        run.json = json
        run.walk = walkFlags.options()
        run.paths = paths.map(commandLinePath)
        run.stats = walkFlags.stats
        run.progress = true
        run.strict = strict
        run.writePolicy = WritePolicy(breaksHardLinks: breakHardlinks)
        run.style = Style(enabled: walkFlags.colorEnabled && !json)
        run.action = interactive ? .interactive : write ? .write : .preview
        if paths.isEmpty && Console.stdinIsPipedData && !interactive {
            throw ExitCode(run.filterStandardInput())
        }
        throw ExitCode(run.run())
    }
}

struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build or refresh the trigram index of a tree (PATH/.trawl/index).",
        discussion: "find uses the index when one is at the root it searches: files the index shows cannot match, and that are unchanged since, are not read. Refreshing reads only files whose size, modification time or inode changed."
    )

    @Argument(help: "The tree's root folder (default: the current folder).")
    var path: String = "."
    @Flag(help: "Print files, bytes read, postings, trigrams, index size and time.")
    var stats = false
    @Flag(help: "Read every file into a new index, whatever is there (when find reports the index corrupt: a refresh checks the listing and the segments' headers, a search the tables and lists it reads).")
    var rebuild = false
    @Flag(help: "Stay and keep the index fresh, telling each search what changed so that it checks no file's status (Linux; stop with Ctrl-C).")
    var watch = false

    func run() throws {
        var run = IndexRun()
        run.root = commandLinePath(path)
        run.stats = stats
        run.rebuild = rebuild
        run.watch = watch
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Build and search a catalog of items (typo-tolerant, ranked, with tokens, scopes and facets).",
        subcommands: [CatalogBuild.self, CatalogAdd.self, CatalogDelete.self, CatalogSearch.self, CatalogPick.self]
    )
}

/// Where the catalog is stored, shared by the catalog commands.
struct CatalogLocation: ParsableArguments {
    @Option(name: .customLong("catalog"), help: "The catalog's folder (default: .trawl/catalog under the current folder).")
    var folder: String?

    var path: FilePath { folder.map(commandLinePath) ?? CatalogStore.defaultFolder }
}

struct CatalogBuild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Index ITEMS (JSON Lines) into a catalog.",
        discussion: #"One object per line: {"id": "…", "fields": {"title": "…", "body": "…"}, "attributes": {"section": "…", "tags": ["…"]}}. Bad lines are reported with their line number and skipped (exit status 2); the stored catalog is replaced atomically."#
    )

    @Argument(help: "The items file; - reads standard input.")
    var items: String
    @OptionGroup var location: CatalogLocation
    @Option(name: .customLong("field"), help: "A searched field and its weight, NAME or NAME=WEIGHT, in order (default: title=2 body=1). Repeatable; other fields follow with weight 1.")
    var fields: [String] = []
    /// The heaviest weight a field may be given (ranks sum a weight per query word).
    static let heaviest = 1000
    @Option(name: .customLong("scope-attribute"), help: "The attribute that search --scope filters on.")
    var scopeAttribute = "section"
    @Flag(help: "Print items, lines skipped, fields, where it was stored and the time.")
    var stats = false

    func run() throws {
        var run = CatalogBuildRun()
        run.items = commandLinePath(items)
        run.folder = location.path
        if !fields.isEmpty {
            var names: Set<String> = []
            run.fields = try fields.map { text in
                let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                guard !name.isEmpty else { throw ValidationError("--field \(text): expected NAME or NAME=WEIGHT") }
                guard names.insert(name).inserted else { throw ValidationError("--field \(text): the field \(name) is given twice") }
                guard parts.count == 2 else { return CatalogField(name) }
                guard let weight = Int(parts[1]), (0...Self.heaviest).contains(weight) else {
                    throw ValidationError("--field \(text): the weight is not a whole number from 0 to \(Self.heaviest)")
                }
                return CatalogField(name, weight: weight)
            }
        }
        run.scopeAttribute = scopeAttribute.isEmpty ? nil : scopeAttribute
        run.stats = stats
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct CatalogAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add or replace ITEMS (JSON Lines, as build reads them) in a built catalog.",
        discussion: "The items are recorded beside the catalog, which is written whole with them once they are an eighth of its size. Bad lines are reported with their line number and skipped (exit status 2)."
    )

    @Argument(help: "The items file; - reads standard input.")
    var items: String
    @OptionGroup var location: CatalogLocation
    @Flag(help: "Print the items recorded, lines skipped, the changes pending and the time.")
    var stats = false

    func run() throws {
        var run = CatalogAddRun()
        run.items = commandLinePath(items)
        run.folder = location.path
        run.stats = stats
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct CatalogDelete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the items with these ids from a built catalog (ids it does not hold are ignored)."
    )

    @Argument(help: "The ids of the items to delete.")
    var ids: [String]
    @OptionGroup var location: CatalogLocation

    func run() throws {
        var run = CatalogDeleteRun()
        run.ids = ids
        run.folder = location.path
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct CatalogSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search a catalog: every word must match, the last as a prefix, with typos tolerated (1 from 5 letters, 2 from 9).",
        discussion: "Exit status: 0 when something matched, 1 when nothing did, 2 on an error."
    )

    @Argument(help: "The query text.")
    var query: String = ""
    @OptionGroup var location: CatalogLocation
    @Option(name: .customLong("token"), help: "Only items with this attribute value, as attribute:value. Repeatable (all must hold).")
    var tokens: [String] = []
    @Option(help: "Only items whose scope attribute (set at build, default section) has this value.")
    var scope: String?
    @Option(help: "How many results to print.")
    var limit = 20
    @Option(name: .customLong("facet"), help: "Count the values of this attribute over all matches (default: every attribute). Repeatable.")
    var facets: [String] = []
    @Flag(help: "Print JSON Lines: one object per result in rank order (with its id), then a summary with the facets.")
    var json = false
    @Option(help: "When to colour matches: auto, always or never.")
    var color: ColorChoice = .auto
    @Flag(help: "Let a word of three letters or more also match inside longer words (office finds libreoffice), ranked after every other match.")
    var insideWords = false

    func run() throws {
        var run = CatalogSearchRun()
        run.matchesInsideWords = insideWords
        run.folder = location.path
        run.text = query
        run.tokens = tokens
        run.scope = scope
        run.limit = max(0, limit)
        run.facets = facets.isEmpty ? nil : facets
        run.json = json
        run.color = color == .always || (color == .auto && Console.stdoutIsTerminal)
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}

struct CatalogPick: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Search a catalog as you type, on the terminal; Enter prints the chosen id.",
        discussion: "Keys: type to search; Tab takes the first suggestion; Backspace on empty text removes the last token; Ctrl-S switches scope; Up and Down select; Enter prints the selected id (exit 0); Esc dismisses (exit 1)."
    )

    @Argument(help: "Text to start with.")
    var query: String = ""
    @OptionGroup var location: CatalogLocation
    @Flag(help: "Let a word of three letters or more also match inside longer words, ranked after every other match.")
    var insideWords = false

    func run() throws {
        var run = CatalogPickRun()
        run.matchesInsideWords = insideWords
        run.folder = location.path
        run.text = query
        let status = run.run()
        if status != 0 { throw ExitCode(status) }
    }
}
