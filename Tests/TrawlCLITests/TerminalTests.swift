import Foundation
import Testing

/// What changes when standard output is a terminal: headings, line numbers and colour by default,
/// and NO_COLOR turning colour off. Runs trawl under `script`, which gives it a pseudo-terminal.
@Suite(.enabled(if: tool("script") != nil, "`script` (util-linux) is not installed"))
struct TerminalTests {
    func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String? {
        let script = try #require(tool("script"))
        let command = ([trawlBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try Child.start(script, ["-qec", command, "/dev/null"], environment: environment).finish()
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func headingsLineNumbersAndColourByDefault() throws {
        let file = fixtures.appendingPathComponent("tree/Sources/App/main.swift").path
        let folder = fixtures.appendingPathComponent("tree/Sources/App").path
        guard let output = try onTerminal(["find", "EventLoop", folder]) else { return }
        #expect(output.hasPrefix("\u{1B}[35m\(file)\u{1B}[0m\n"), "a coloured heading")
        #expect(output.contains("\u{1B}[32m4\u{1B}[0m:let loop = \u{1B}[1;31mEventLoop\u{1B}[0m(threads: 2)"))
        guard let plain = try onTerminal(["find", "EventLoop", folder], environment: ["NO_COLOR": "1"]) else { return }
        #expect(!plain.contains("\u{1B}["))
        #expect(plain.contains("4:let loop = EventLoop(threads: 2)"), "line numbers stay on")
    }

    /// Files' groups are parted by a blank line, as ripgrep's are (and not by "--", even with context).
    @Test func headedGroupsArePartedByABlankLine() throws {
        let folder = scratchURL("headed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt", "c.txt"] { try Data("x\n\(name == "b.txt" ? "none" : "needle")\ny\n".utf8).write(to: folder.appendingPathComponent(name)) }
        let a = folder.appendingPathComponent("a.txt").path, b = folder.appendingPathComponent("b.txt").path
        let c = folder.appendingPathComponent("c.txt").path
        guard let output = try onTerminal(["find", "-C1", "needle", a, b, c], environment: ["NO_COLOR": "1"]) else { return }
        #expect(output == "\(a)\n1-x\n2:needle\n3-y\n\n\(c)\n1-x\n2:needle\n3-y\n")
    }
}
