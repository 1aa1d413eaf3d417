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
}
