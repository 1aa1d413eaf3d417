import Foundation
import Testing
import TrawlTestSupport

/// The preview of `trawl replace` is a unified diff that `git apply` and `patch` accept, and
/// applying it gives exactly what `--write` writes: checked on hand-picked edge cases (joined and
/// split lines, missing final line breaks, whole lines deleted, names with spaces and non-ASCII
/// bytes) and on random trees.
@Suite(.enabled(if: tool("git") != nil && tool("patch") != nil, "git and patch are needed to apply previews"))
struct PreviewDiffTests {
    /// Makes two copies of `files`, previews the replacement on one and applies the preview with
    /// git and with patch, writes it on the other, and compares.
    func check(_ files: [String: String], _ pattern: String, _ replacement: String, flags: [String] = [],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let base = scratchURL("diff")
        let previewed = base.appendingPathComponent("previewed"), written = base.appendingPathComponent("written"),
            patched = base.appendingPathComponent("patched")
        for tree in [previewed, written, patched] {
            for (name, text) in files {
                let url = tree.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        }
        defer { try? FileManager.default.removeItem(at: base) }
        let preview = try trawl(["replace", "--color", "never"] + flags + ["--", pattern, replacement], in: previewed)
        #expect(preview.status == 0 || preview.status == 1, "\(preview.stderr)", sourceLocation: sourceLocation)
        let patchFile = base.appendingPathComponent("preview.diff")
        try Data(preview.output).write(to: patchFile)
        let write = try trawl(["replace", "--write"] + flags + ["--", pattern, replacement], in: written)
        #expect(write.status == preview.status, "\(write.stderr)", sourceLocation: sourceLocation)
        // Nothing to change (exit 1) is the one case without a diff to check.
        if preview.status == 1 {
            #expect(preview.output.isEmpty, "a diff where nothing changes: \(preview.stdout)", sourceLocation: sourceLocation)
            return
        }
        #expect(!preview.output.isEmpty, "changes without a diff", sourceLocation: sourceLocation)

        let gitCheck = try runTool(tool("git")!, ["apply", "--check", "--unsafe-paths", "-p1", patchFile.path], in: previewed)
        #expect(gitCheck.status == 0, "git apply --check: \(gitCheck.stderr)\n\(preview.stdout)", sourceLocation: sourceLocation)
        let patchCheck = try runTool(tool("patch")!, ["-p1", "--dry-run", "-i", patchFile.path], in: previewed)
        #expect(patchCheck.status == 0, "patch --dry-run: \(patchCheck.stdout)\n\(preview.stdout)", sourceLocation: sourceLocation)

        let gitApply = try runTool(tool("git")!, ["apply", "--unsafe-paths", "-p1", patchFile.path], in: previewed)
        #expect(gitApply.status == 0, "git apply: \(gitApply.stderr)", sourceLocation: sourceLocation)
        #expect(try snapshotTree(previewed) == snapshotTree(written), "git apply of the preview differs from --write", sourceLocation: sourceLocation)
        let patchApply = try runTool(tool("patch")!, ["-p1", "-s", "-i", patchFile.path], in: patched)
        #expect(patchApply.status == 0, "patch: \(patchApply.stdout)", sourceLocation: sourceLocation)
        let patchedTree = try snapshotTree(patched).filter { !$0.key.hasSuffix(".orig") }
        #expect(patchedTree == (try snapshotTree(written)), "patch of the preview differs from --write", sourceLocation: sourceLocation)
    }

    @Test func joiningAndSplittingLines() throws {
        let text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"
        try check(["a.txt": text], "o\\n", "o ")            // joins lines
        try check(["a.txt": text], "e", "E\\nE")            // splits lines
        try check(["a.txt": text], "two\\nthree\\n", "")    // deletes whole lines
        try check(["a.txt": text], "\\n", "")               // joins everything
        try check(["a.txt": text], "twelve\\n", "twelve")   // removes the final line break
        try check(["a.txt": text], "^", "> ")               // every line
        try check(["a.txt": text], "(one|twelve)", "[$1]")  // two hunks far apart
        try check(["a.txt": text], "(four|eight)", "[$1]")  // two changes merged into one hunk
    }

    @Test func filesWithoutAFinalLineBreak() throws {
        try check(["a.txt": "alpha\nbeta\ngamma"], "gamma", "delta")
        try check(["a.txt": "alpha\nbeta\ngamma"], "alpha", "delta")
        try check(["a.txt": "alpha\nbeta\ngamma"], "gamma", "delta\n")
        try check(["a.txt": "alpha"], "alpha", "")
        try check(["a.txt": "alpha\n"], "alpha\\n", "")
        try check(["a.txt": "x\r\ny\r\n"], "y", "z")
    }

    @Test func filesWithAByteOrderMark() throws {
        let bom = "\u{FEFF}"
        try check(["a.txt": bom + "alpha\nbeta\n"], "alpha", "omega")
        try check(["a.txt": bom + "alpha\nbeta\n"], "alpha\\n", "")
        try check(["a.txt": bom + "alpha\nbeta\n"], "(?s).*", "")
        try check(["a.txt": bom + "alpha\nbeta\n"], "beta", "gamma")
        try check(["a.txt": bom + "alpha"], "alpha", "")
    }

    @Test func namesThatNeedCare() throws {
        try check(["with space/file name.txt": "alpha\n", "ünïcode.txt": "alpha\n", "quote\"d.txt": "alpha\n",
                   "deep/er/still.txt": "alpha\nbeta\n"], "alpha", "omega")
    }

    @Test func aLargeFileIsStreamedInItsPlaceAmongTheOthers() throws {
        // Past the streaming threshold (32 MiB): its diff is printed as it is made, between the
        // diffs of the files before and after it.
        let line = String(repeating: "filler text ", count: 8) + "\n"
        var big = ""
        for index in 0..<(34 << 20) / line.utf8.count { big += index % 5000 == 0 ? "alpha\n" : line }
        try check(["a.txt": "alpha\n", "big.txt": big, "c.txt": "alpha\n"], "alpha", "omega")
    }

    @Test func randomTextsAndReplacements() throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x5EED_D1FF))
        let words = ["a", "b", "ab", "ba", "\n", "\n", "\n", " ", "é", "\r\n"]
        let patterns = [("a", "X"), ("ab", ""), ("b\\n", "B"), ("\\n", "\\n\\n"), ("a+", "$0$0"), ("^", "#"), ("$", ";"),
                        ("b\\na", "-"), ("é", "e\\n"), ("(?m)^a", ""), ("\\r\\n", "\\n")]
        for round in 0..<(25 * PropertyTestSettings.scale) {
            var files: [String: String] = [:]
            for index in 0..<3 {
                let count = Int.random(in: 0...120, using: &random)
                files["f\(round)-\(index).txt"] = (0..<count).map { _ in words.randomElement(using: &random)! }.joined()
            }
            let (pattern, replacement) = patterns.randomElement(using: &random)!
            try check(files, pattern, replacement)
        }
    }
}
