import Testing
import TrawlMatch
import TrawlText

@Suite struct ReplacementTemplateTests {
    /// Expands `template` for the first match of `pattern` in `text`.
    func expand(_ pattern: String, _ text: String, _ template: String, preserveCase: Bool = false) throws -> String {
        let matcher = try RegexMatcher(pattern)
        let rope = Rope(text)
        let match = try #require(try matcher.firstMatch(in: rope, capturingGroups: true))
        return try matcher.template(template, preserveCase: preserveCase).expand(match, in: rope)
    }

    @Test func groupReferences() throws {
        #expect(try expand("(\\w+)@(\\w+)", "me@host", "$2 at $1") == "host at me")
        #expect(try expand("(\\w+)@(\\w+)", "me@host", "[$0|$&]") == "[me@host|me@host]")
        #expect(try expand("(\\w+)@(\\w+)", "me@host", "${2}${1}") == "hostme")
        #expect(try expand("(?<user>\\w+)@(?<host>\\w+)", "me@host", "${host}/${user}") == "host/me")
        #expect(try expand("(a)", "a", "$$1 costs $$") == "$1 costs $")
        #expect(try expand("(a)(b)?", "a", "[$2]") == "[]", "an unmatched group expands to nothing")
        #expect(try expand("(a)", "a", "$1 $") == "a $", "a lone $ is literal")
        #expect(try expand("(a)", "a", "$x") == "$x")
    }

    @Test func twoDigitReferencesTakeTheLongestExistingGroup() throws {
        let twelve = String(repeating: "(.)", count: 12)
        #expect(try expand(twelve, "abcdefghijkl", "$12$1") == "la")
        #expect(try expand("(a)(b)(c)", "abc", "$12") == "a2", "with 3 groups, $12 is group 1 then 2")
        #expect(try expand("(a)(b)(c)", "abc", "$3$2") == "cb")
    }

    @Test func escapes() throws {
        #expect(try expand("a", "a", "x\\ny\\tz\\\\w") == "x\ny\tz\\w")
        #expect(try expand("a", "a", "\\q") == "\\q", "an unknown escape stays as typed")
        #expect(try expand("a", "a", "end\\") == "end\\")
    }

    @Test func caseOperators() throws {
        #expect(try expand("(\\w+) (\\w+)", "hello world", "\\u$1 \\U$2") == "Hello WORLD")
        #expect(try expand("(\\w+) (\\w+)", "HELLO WORLD", "\\l$1 \\L$2") == "hELLO world")
        #expect(try expand("(\\w+) (\\w+)", "hello world", "\\U$1-$2") == "HELLO-world", "\\U ends with the next group")
        #expect(try expand("(\\w+)", "word", "\\Ux$1y") == "XWORDy")
        #expect(try expand("(\\w+)", "word", "\\uabc") == "Abc")
        #expect(try expand("(\\w+)", "straße", "\\U$1") == "STRASSE")
        #expect(try expand("(\\w+)", "élan", "\\u$1") == "Élan")
        // Consecutive operators apply to successive characters, as in VS Code.
        #expect(try expand("(\\w+)", "abcd", "\\u\\u$1") == "ABcd")
        #expect(try expand("(\\w+)", "abcd", "\\u\\l\\u$1") == "AbCd")
        #expect(try expand("(\\w+)", "ABCD", "\\l\\U$1") == "aBCD")
        #expect(try expand("(\\w+)", "ab", "\\u\\u\\u$1") == "AB", "more operators than characters")
    }

    @Test func errorsNameTheOffset() throws {
        let matcher = try RegexMatcher("(a)(?<name>b)")
        #expect(throws: ReplacementTemplateError(message: "no group 3 in the pattern (it has 2); write $$ for a dollar sign", offset: 2)) {
            try matcher.template("x $3")
        }
        // Two digits that name no group, nor does their first: the number as typed.
        #expect(throws: ReplacementTemplateError(message: "no group 99 in the pattern (it has 2); write $$ for a dollar sign", offset: 0)) {
            try matcher.template("$99")
        }
        #expect(throws: ReplacementTemplateError(message: "unterminated ${", offset: 0)) { try matcher.template("${1") }
        #expect(throws: ReplacementTemplateError(message: "empty group reference ${}", offset: 1)) { try matcher.template("a${}") }
        #expect(throws: ReplacementTemplateError(message: "no group named 'nope' in the pattern", offset: 0)) { try matcher.template("${nope}") }
        #expect(throws: ReplacementTemplateError(message: "no group 9 in the pattern (it has 2)", offset: 0)) { try matcher.template("${9}") }
        #expect(try matcher.template("${name}").isStatic == false)
    }

    @Test func literalModeInsertsAsTyped() throws {
        let template = ReplacementTemplate(literal: "$1 \\n ${x}")
        let rope = Rope("abc")
        #expect(template.expand(Match(range: 0..<1), in: rope) == "$1 \\n ${x}")
        #expect(template.isStatic)
    }

    @Test(arguments: [
        ("foo", "bar", "bar"), ("FOO", "bar", "BAR"), ("Foo", "bar", "Bar"), ("fOO", "Bar", "bar"),
        ("foo-bar", "baz-qux", "baz-qux"), ("Foo-Bar", "baz-qux", "Baz-Qux"), ("FOO_BAR", "baz_qux", "BAZ_QUX"),
        ("foo_Bar", "baz_qux", "baz_Qux"), ("Foo-Bar", "bazqux", "Bazqux"), ("ÉTÉ", "hiver", "HIVER"), ("123", "abc", "abc"),
    ])
    func preserveCase(original: String, replacement: String, expected: String) {
        #expect(ReplacementTemplate(literal: replacement, preserveCase: true).expand(Match(range: 0..<original.utf8.count),
                                                                                      in: Rope(original)) == expected)
    }
}
