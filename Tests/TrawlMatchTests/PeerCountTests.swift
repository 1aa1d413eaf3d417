import Foundation
import Testing
import TrawlTestSupport
import TrawlMatch
import TrawlText

/// Match counts on Fixtures agree with ripgrep (`rg -P --count-matches --crlf`) and pcre2grep
/// (`-o`, one output line per match). Scripts/test.sh installs both; a missing tool is reported as
/// a skip with its reason.
///
/// Where the semantics knowingly differ, the patterns avoid it: Trawl matches `\n` against CRLF as
/// well as LF and lets patterns with an explicit line break span lines (rg needs -U for that);
/// pcre2grep prints nothing for empty matches; and pcre2grep needs `(*UCP)` for Unicode `\w`.
@Suite struct PeerCountTests {
    static let patterns: [(String, Bool)] = [
        ("\\w+Error\\b", false), ("func\\s+\\w+\\(", false), ("(struct|class|enum|protocol)\\s+[A-Z]\\w*", false),
        ("[a-z]+ing\\b", false), ("eventloop", true), ("\\bthe\\b", true), ("straße", true), ("\\w+", false),
        ("[A-Z][a-z]+", false), ("\\d+", false), ("\\s+$", false), ("^\\s*\\w", false), ("é|ñ|ï", false),
        ("[\\x{4e00}-\\x{9fff}]+", false), ("k", true), ("\\p{Lu}\\p{Ll}+", false), ("(?<=\\.)\\w+", false), ("\\w+(?=\\()", false),
        // Empty matches: none where a match ended (`.*` once per line), as rg -P counts them.
        (".*", false), ("\\w*", false), ("x*", false),
    ]

    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static var fixtureFiles: [URL] {
        (try? FileManager.default.contentsOfDirectory(at: fixturesDirectory.appendingPathComponent("match"), includingPropertiesForKeys: nil))?
            .sorted { $0.path < $1.path } ?? []
    }

    func trawlCount(_ pattern: String, caseless: Bool, file: URL) throws -> Int {
        // As grep tools count: a final line break ends the text (no empty last line after it).
        var options = MatchOptions(syntax: .regex, matchCase: !caseless)
        options.finalLineBreakEndsText = true
        let matcher = try RegexMatcher(pattern, options: options)
        return try matcher.count(in: Rope(contentsOfFile: file.path))
    }

    @Test(.enabled(if: tool("rg") != nil, "ripgrep (rg) is not installed; Scripts/test.sh installs it"))
    func countsAgreeWithRipgrep() throws {
        let rg = try #require(tool("rg"))
        #expect(!Self.fixtureFiles.isEmpty)
        for file in Self.fixtureFiles {
            let hasCRLF = try String(contentsOf: file, encoding: .utf8).utf8.contains(0x0D)
            // rg --crlf reports an empty match between a CR and its LF; for Trawl a CRLF is one
            // line break, never split: empty-matching patterns are compared on LF files only.
            for (pattern, caseless) in Self.patterns where !(hasCRLF && pattern.hasSuffix("*")) {
                var arguments = ["-P", "--count-matches", "--crlf", "--no-filename"]
                if caseless { arguments.append("-i") }
                let output = try Self.run(rg, arguments + ["-e", pattern, file.path])
                let expected = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                #expect(try trawlCount(pattern, caseless: caseless, file: file) == expected, "rg: \(pattern) in \(file.lastPathComponent)")
            }
        }
    }

    @Test(.enabled(if: tool("pcre2grep") != nil, "pcre2grep is not installed; Scripts/test.sh installs pcre2-utils"))
    func countsAgreeWithPcre2grep() throws {
        let pcre2grep = try #require(tool("pcre2grep"))
        for file in Self.fixtureFiles {
            for (pattern, caseless) in Self.patterns where pattern != "\\s+$" && pattern != "^\\s*\\w" && !pattern.hasSuffix("*") {
                // (\s+$ and ^\s*\w differ only in how pcre2grep splits CRLF lines for -o output;
                // -o prints empty matches as empty lines, which cannot be counted.)
                var arguments = ["-o", "-u", "-N", "ANYCRLF"]
                if caseless { arguments.append("-i") }
                let output = try Self.run(pcre2grep, arguments + ["(*UCP)" + pattern, file.path])
                let expected = output.split(separator: "\n", omittingEmptySubsequences: true).count
                #expect(try trawlCount(pattern, caseless: caseless, file: file) == expected, "pcre2grep: \(pattern) in \(file.lastPathComponent)")
            }
        }
    }
}
