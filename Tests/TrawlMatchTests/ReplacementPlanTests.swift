import Testing
import TrawlMatch
import TrawlText

/// A replacement plan gives the same text whether it is applied to bytes (batch replace over
/// files) or to a rope as one batch of edits (an editor's replace all), and the edits it returns
/// replay the change.
@Suite struct ReplacementPlanTests {
    static let cases: [(pattern: String, template: String)] = [
        ("foo", "X"), ("(fo+)|(ba[rz])", "[$1|$2]"), ("\\s+", " "), ("(?i)straße", "\\U$0"), ("e", ""), ("^", "> "),
        ("$", ";"), ("\\n", "\\n\\n"), ("(\\w+)", "${1}_"), ("a|b", "$$"), ("😀", "🙂"), ("x*", "-"),
    ]

    @Test func bytesAndRopeGiveTheSameText() throws {
        var random = SeededGenerator(seed: Settings.seed)
        for _ in 0..<(300 * Settings.scale) {
            let text = random.matchText(pieces: 40)
            let (pattern, templateText) = Self.cases.randomElement(using: &random)!
            let matcher = try RegexMatcher(pattern)
            let template = try ReplacementTemplate(templateText, groupCount: matcher.captureCount, groupNumbers: matcher.groupNumbers)
            let contiguous = try ContiguousText(validating: text)
            let plan = try ReplacementPlan(matching: matcher, in: contiguous, template: template)
            let viaBytes = text.withUnsafeBufferPointer { plan.applied(to: $0) }

            var rope = Rope(String(decoding: text, as: UTF8.self))
            let original = rope
            let edits = plan.apply(to: &rope)
            #expect(Array(String(rope).utf8) == viaBytes, "\(pattern) → \(templateText)")
            #expect(rope.invariantViolation() == nil)
            #expect(edits.count == plan.changes.count)

            // Replaying the edits on a copy of the original gives the same text again.
            var replay = original
            for edit in edits {
                let change = plan.changes.first { $0.range == edit.replacedRange }!
                #expect(edit.insertedCount == change.replacement.count)
                replay.replace(edit.replacedRange, with: String(decoding: change.replacement, as: UTF8.self))
            }
            #expect(String(replay) == String(rope))

            // The streaming form yields exactly the plan's changes.
            var streamed: [ReplacementPlan.Change] = []
            try ReplacementPlan.forEachChange(matching: matcher, in: contiguous, template: template) { streamed.append($0) }
            #expect(streamed == plan.changes)
        }
    }

    @Test func aStaticTemplateExpandsLikeTheGeneralPath() throws {
        let matcher = try RegexMatcher("(ab)+")
        let text = try ContiguousText(validating: Array("ab abab x ab".utf8))
        for template in ["Z", "\\n", "$$", "\\Uz"] {
            let parsed = try ReplacementTemplate(template, groupCount: matcher.captureCount)
            let plan = try ReplacementPlan(matching: matcher, in: text, template: parsed)
            let expected = try matcher.matches(in: text).map { Array(parsed.expand($0, in: text).utf8) }
            #expect(plan.changes.map(\.replacement) == expected, "\(template)")
        }
    }

    @Test func writingHandsOverEveryByteInOrder() {
        let bytes = Array("one two three".utf8)
        let plan = ReplacementPlan(changes: [.init(range: 0..<3, replacement: Array("1".utf8)), .init(range: 8..<13, replacement: [])])
        var pieces: [[UInt8]] = []
        bytes.withUnsafeBufferPointer { plan.write($0) { pieces.append(Array($0)) } }
        #expect(pieces.flatMap { $0 } == Array("1 two ".utf8))
        #expect(bytes.withUnsafeBufferPointer { plan.applied(to: $0) } == Array("1 two ".utf8))
    }
}
