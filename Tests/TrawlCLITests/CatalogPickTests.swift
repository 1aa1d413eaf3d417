import Foundation
import Testing
import TrawlCatalog

/// `trawl catalog pick` under a pseudo-terminal (Python's `pty` module drives it): each step sends
/// keys, then waits until the screen shows the expected text — output is awaited, never timed.
@Suite(.enabled(if: tool("python3") != nil, "python3 is not installed (it provides the pseudo-terminal)"))
struct CatalogPickTests {
    static let driver = #"""
    import os, pty, sys, select, json
    steps = json.loads(sys.argv[1]); command = sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(command[0], command)
    seen = b""
    def wait_for(text):
        global seen
        while text.encode() not in seen:
            ready, _, _ = select.select([fd], [], [], 20)
            if not ready: print("TIMEOUT waiting for " + repr(text) + " screen: " + repr(seen[-2000:])); sys.exit(3)
            try: chunk = os.read(fd, 65536)
            except OSError: chunk = b""
            if not chunk: print("EOF waiting for " + repr(text) + " screen: " + repr(seen[-2000:])); sys.exit(3)
            seen += chunk
    whole = os.environ.get("PICK_WHOLE") == "1"  # all the screens, not only the last step's
    for send, expect in steps:
        if not whole: seen = b""
        os.write(fd, send.encode())
        if expect: wait_for(expect)  # "" waits for the end instead
    while True:
        try: chunk = os.read(fd, 65536)
        except OSError: break
        if not chunk: break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(seen.decode(errors="replace")); print("\nEXIT %d" % os.waitstatus_to_exitcode(status))
    """#

    /// Runs pick in `folder` with `steps` ([keys to send, text to wait for; "" for the end]);
    /// returns what the terminal showed after the last step, then "EXIT" and the exit status.
    /// With `whole`, everything shown from the start.
    func pick(_ steps: [(String, String)], in folder: URL, whole: Bool = false) throws -> String {
        let python = try #require(tool("python3"))
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1] }), as: UTF8.self)
        let run = try Child.start(python, ["-c", Self.driver, encoded, trawlBinary.path, "catalog", "pick"], in: folder,
                                  environment: whole ? ["PICK_WHOLE": "1"] : [:]).finish(limit: 120)
        return run.stdout
    }

    /// A catalog of two items: one whose id holds an escape sequence and whose title is wider
    /// than the terminal, with "MARK" past its 80th column (the pseudo-terminal says no size: 80).
    func catalogOfAWideItem() throws -> URL {
        let folder = scratchURL("pick-wide")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let title = "zebra " + String(repeating: "word ", count: 13) + "MARK and more"
        let lines = [#"{"id": "long\u001b[31mid", "fields": {"title": "\#(title)"}}"#, #"{"id": "other", "fields": {"title": "apple"}}"#]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("items.jsonl"))
        #expect(try trawl(["catalog", "build", "items.jsonl"], in: folder).status == 0)
        return folder
    }

    /// A row is cut at the terminal's width (escape sequences take no columns), and an id's
    /// control characters show as spaces instead of reaching the terminal.
    @Test func rowsFitTheTerminalAndIdsCannotEscape() throws {
        let folder = try catalogOfAWideItem()
        let output = try pick([("", "2 matches"), ("zebra", "1 match"), ("\r", "")], in: folder, whole: true)
        let screens = try #require(output.components(separatedBy: "\u{1B}[?1049l").first)
        #expect(screens.contains("long [31mid\u{1B}[0m  "), "\(screens.suffix(600))")
        #expect(screens.contains("word word word"))
        #expect(!screens.contains("MARK"), "\(screens.suffix(600))")
        #expect(output.hasSuffix("\u{1B}[?1049llong\u{1B}[31mid\r\n\nEXIT 0\n"), "the chosen id, as it is, for the caller")
    }

    /// A letter whose bytes arrive in two reads (pick reads 256 bytes at a time) is typed whole.
    @Test func aLetterSplitAcrossReadsIsTypedWhole() throws {
        let folder = try catalogOfAWideItem()
        let output = try pick([("", "2 matches"), (String(repeating: "a", count: 255) + "é", "aé"), ("\u{1B}", "")], in: folder)
        #expect(output.hasSuffix("EXIT 1\n"))
    }

    func builtCatalog() throws -> URL {
        let folder = scratchURL("pick")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let build = try trawl(["catalog", "build", fixtures.appendingPathComponent("catalog/packages.jsonl").path], in: folder)
        #expect(build.status == 0)
        return folder
    }

    @Test func typingNarrowsAndEnterPrintsTheChosenId() throws {
        let folder = try builtCatalog()
        let output = try pick([("", "319 matches"), ("pyth", "matches"), ("o", "python3-freezegun"), ("\r", "")], in: folder)
        // The id printed after the screen is restored (the alternate screen left): the library's
        // first result for "pytho".
        let text = try String(contentsOf: fixtures.appendingPathComponent("catalog/packages.jsonl"), encoding: .utf8)
        let catalog = Catalog(items: try text.split(separator: "\n").map { try CatalogItem(jsonLine: String($0)) })
        var searcher = CatalogSearcher()
        let first = try #require(searcher.search(CatalogQuery(text: "pytho"), in: catalog).hits.first?.id)
        #expect(output.hasSuffix("\u{1B}[?1049l\(first)\r\n\nEXIT 0\n"), "\(output.suffix(300))")
    }

    @Test func tabTakesASuggestionTokensArePillsAndBackspaceRemovesThem() throws {
        let folder = try builtCatalog()
        // Tab takes the first suggestion, a completion of the word.
        let output = try pick([("", "319 matches"), ("librar", "tab: library"), ("\t", "> library\r\n"),
                               // Backspaces empty the text; a token completion makes a pill, which one more removes.
                               ("\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}\u{7F}", "319 matches"),
                               // No word of the items begins with "uitoolkit", but tags do.
                               ("uitoolkit", "tab: tags:uitoolkit::"), ("\t", "\u{1B}[7m tags:uitoolkit::"),
                               ("\u{7F}", "319 matches"), ("\u{1B}", "")], in: folder)
        #expect(output.hasSuffix("\u{1B}[?1049l\nEXIT 1\n"), "\(output.suffix(300))") // Esc dismisses, printing nothing
    }

    @Test func scopesSwitchWithAKeyAndUpDownSelect() throws {
        let folder = try builtCatalog()
        let output = try pick([("", "scope (Ctrl-S)"), ("\u{13}", "\u{1B}[7m libs \u{1B}[0m"), ("\u{1B}[B", "\u{1B}[1m> "), ("\r", "")], in: folder)
        // The second item of the libs scope, chosen with Down.
        let text = try String(contentsOf: fixtures.appendingPathComponent("catalog/packages.jsonl"), encoding: .utf8)
        let libs = text.split(separator: "\n").filter { $0.contains(#""section": "libs""#) }
        let second = try #require(libs.dropFirst().first.flatMap { $0.split(separator: "\"").dropFirst(3).first })
        #expect(output.hasSuffix("\u{1B}[?1049l\(second)\r\n\nEXIT 0\n"), "\(output.suffix(300))")
    }

    @Test func withoutATerminalItSaysSo() throws {
        let folder = try builtCatalog()
        let run = try Child.start("/usr/bin/setsid", [trawlBinary.path, "catalog", "pick"], in: folder).finish(limit: 60)
        #expect(run.status == 2 && run.stderr.contains("needs a terminal"), "\(run.stderr)")
    }
}
