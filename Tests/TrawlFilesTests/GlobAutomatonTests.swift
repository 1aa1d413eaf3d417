import Testing
@testable import TrawlFiles

/// Globs with alternatives and several `**` run as one automaton: the same answers as expanding
/// every alternative and matching each (the old way, kept here as the oracle), in time bounded by
/// the pattern times the path where expanding was exponential.
@Suite struct GlobAutomatonTests {
    /// The patterns a `{a,b}` group stands for, expanded as the matcher once did.
    static func expandBraces(_ pattern: ArraySlice<UInt8>) -> [[UInt8]] {
        var index = pattern.startIndex
        var inClass = false
        var open: Int?
        var depth = 0
        var commas: [Int] = []
        while index < pattern.endIndex {
            let byte = pattern[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if inClass {
                if byte == UInt8(ascii: "]") { inClass = false }
            } else if byte == UInt8(ascii: "[") {
                inClass = true
            } else if byte == UInt8(ascii: "{") {
                if depth == 0 { open = index; commas = [] }
                depth += 1
            } else if byte == UInt8(ascii: ","), depth == 1 {
                commas.append(index)
            } else if byte == UInt8(ascii: "}"), depth > 0 {
                depth -= 1
                if depth == 0, let start = open {
                    let prefix = pattern[pattern.startIndex..<start]
                    let suffixes = expandBraces(pattern[(index + 1)...])
                    var result: [[UInt8]] = []
                    let bounds = [start] + commas + [index]
                    for part in 0..<(bounds.count - 1) {
                        for middle in expandBraces(pattern[(bounds[part] + 1)..<bounds[part + 1]]) {
                            for suffix in suffixes { result.append(Array(prefix) + middle + suffix) }
                        }
                    }
                    return result
                }
            }
            index += 1
        }
        return [Array(pattern)]
    }

    static func oracle(_ glob: String, _ path: [UInt8]) -> Bool {
        expandBraces(Array(glob.utf8)[...]).contains { Glob.match($0[...], path[...]) }
    }

    /// Random globs of literals, `?`, `*`, `**`, classes, escapes and nested groups (no `*`, `\`
    /// or `[` at a group's edge, which the expansion joined with the text beside it).
    func randomGlob(_ random: inout SeededGenerator, depth: Int = 0) -> String {
        var pieces: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<(depth < 2 ? 9 : 7), using: &random) {
            case 0: pieces.append("a")
            case 1: pieces.append("b/")
            case 2: pieces.append("?")
            case 3: pieces.append("x*y")
            case 4: pieces.append("[ab]c")
            case 5: pieces.append("/**/")
            case 6: pieces.append("\\{c")
            default:
                let branches = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomGlob(&random, depth: depth + 1) }
                pieces.append("{" + branches.joined(separator: ",") + "}")
            }
        }
        return pieces.joined()
    }

    func randomPath(_ random: inout SeededGenerator) -> [UInt8] {
        let alphabet = Array("ab/cxy{".utf8)
        return (0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
    }

    @Test func theAutomatonAnswersAsExpandingDid() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x610B))
        for _ in 0..<(1500 * PropertyTestSettings.scale) {
            let glob = randomGlob(&random)
            let automaton = GlobAutomaton(Array(glob.utf8))
            for _ in 0..<8 {
                let path = randomPath(&random)
                #expect(automaton.matches(path) == GlobAutomatonTests.oracle(glob, path), "\(glob) on \(String(decoding: path, as: UTF8.self))")
            }
        }
    }

    /// Sixteen groups of four (four billion expansions) and twenty-four `*{a,b}`: answered at once.
    @Test func globsThatExpandedExponentiallyAreMatchedDirectly() {
        let sixteen = Glob(String(repeating: "{a,b,c,d}", count: 16))
        #expect(sixteen.matches(Array("abcdabcdabcdabcd".utf8)))
        #expect(!sixteen.matches(Array("abcdabcdabcdabce".utf8)))
        #expect(!sixteen.matches(Array("abcdabcdabcdabc".utf8)))
        let stars = Glob(String(repeating: "*{a,b}", count: 24))
        #expect(stars.matches(Array(String(repeating: "xa", count: 24).utf8)))
        #expect(!stars.matches(Array(String(repeating: "xa", count: 23).utf8)))
        let globstars = Glob(String(repeating: "**/a/", count: 20) + "b")
        #expect(!globstars.matches(Array((String(repeating: "a/", count: 40) + "c").utf8)))
        #expect(globstars.matches(Array((String(repeating: "a/", count: 40) + "b").utf8)))
        // Groups nested past the limit are literal text, never a deep recursion.
        let deep = String(repeating: "{", count: 10_000) + "a" + String(repeating: "}", count: 10_000)
        #expect(!Glob(deep).matches(Array("a".utf8)))
    }
}
