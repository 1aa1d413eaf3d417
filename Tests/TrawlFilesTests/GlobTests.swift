import Testing
@testable import TrawlFiles

@Suite struct GlobTests {
    @Test(arguments: [
        ("*.swift", "main.swift", true), ("*.swift", "dir/main.swift", false), ("**/*.swift", "a/b/c.swift", true),
        ("**/*.swift", "c.swift", true), ("src/**", "src/a/b", true), ("src/**", "other/a", false), ("a/**/b", "a/b", true),
        ("a/**/b", "a/x/y/b", true), ("?.txt", "a.txt", true), ("?.txt", "ab.txt", false), ("[abc].txt", "b.txt", true),
        ("[!abc].txt", "b.txt", false), ("[a-c]x", "bx", true), ("\\*.txt", "*.txt", true), ("\\*.txt", "a.txt", false),
        ("*", "a/b", false), ("foo", "foo", true), ("foo", "foobar", false), ("*.min.*", "x.min.js", true),
        ("*.{py,txt}", "a.py", true), ("*.{py,txt}", "a.txt", true), ("*.{py,txt}", "a.md", false),
        ("{src,lib}/**/*.{c,h}", "lib/x/y.h", true), ("{src,lib}/**/*.{c,h}", "doc/y.h", false),
        ("a{b,{c,d}e}f", "adef", true), ("a{b,{c,d}e}f", "abf", true), ("a{b,{c,d}e}f", "abef", false),
        ("\\{x,y}", "{x,y}", true), ("[{]x", "{x", true), ("{x", "{x", true),
    ])
    func globsMatchLikeGitignore(glob: String, path: String, expected: Bool) {
        #expect(Glob(glob).matches(Array(path.utf8)) == expected)
    }

    @Test func ignoreRulesHonourNegationDirectoriesAndAnchoring() {
        let file = IgnoreFile(base: [], contents: Array("*.log\n!keep.log\nbuild/\n/top.txt\n# comment\n\ndocs/*.md\n".utf8))
        func decide(_ path: String, directory: Bool = false) -> Bool? {
            let bytes = Array(path.utf8)
            let name = bytes.split(separator: 0x2F).last ?? []
            return file.decision(for: bytes, name: name, isDirectory: directory)
        }
        #expect(decide("a/x.log") == true)
        #expect(decide("a/keep.log") == false)
        #expect(decide("build", directory: true) == true)
        #expect(decide("build") == nil, "build/ matches folders only")
        #expect(decide("top.txt") == true)
        #expect(decide("sub/top.txt") == nil, "a leading slash anchors to the ignore file's folder")
        #expect(decide("docs/a.md") == true)
        #expect(decide("other/docs/a.md") == nil)
    }
}
