import Testing
import TrawlMatch
import TrawlTestSupport
@testable import TrawlIndex
import TrawlNGram

/// The units a literal query selects, against each unit's trigrams checked one by one.
struct NGramIndexQueryTests {
    /// Texts over a small alphabet, so that literals' trigrams are often present and often not.
    static let alphabet = Array("abcAB ".utf8)

    static func randomBytes(_ random: inout SeededGenerator, count: ClosedRange<Int>) -> [UInt8] {
        (0..<Int.random(in: count, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
    }

    static func randomQuery(_ random: inout SeededGenerator, depth: Int = 0) -> LiteralQuery {
        switch depth < 3 ? Int.random(in: 0...5, using: &random) : 1 {
        case 0: return .all
        case 1, 2, 3:
            let bytes = randomBytes(&random, count: 1...5)
            return .literal(QueryLiteral(bytes: bytes, caseless: bytes.map { _ in false })!)
        case 4: return .and((0..<Int.random(in: 0...3, using: &random)).map { _ in randomQuery(&random, depth: depth + 1) })
        default: return .or((0..<Int.random(in: 0...3, using: &random)).map { _ in randomQuery(&random, depth: depth + 1) })
        }
    }

    /// Whether a unit with `trigrams` can hold a match of `query`, asked of that unit alone.
    static func admits(_ query: LiteralQuery, _ trigrams: Set<Trigram>) -> Bool {
        switch query {
        case .all: true
        case .literal(let literal): literal.trigrams.allSatisfy(trigrams.contains)
        case .and(let parts): parts.allSatisfy { admits($0, trigrams) }
        case .or(let parts): parts.contains { admits($0, trigrams) }
        }
    }

    @Test func queriesSelectTheUnitsWhoseTrigramsAdmitThem() throws {
        var random = SeededGenerator(seed: 0x9A3)
        for _ in 0..<40 {
            // Unit numbers with gaps, as a tree's files have after refreshes; some lists dense.
            let numbers = (0..<Int.random(in: 1...300, using: &random)).map { UInt32($0 * Int.random(in: 1...3, using: &random)) }
            var index = NGramIndex()
            var unitTrigrams: [UInt32: Set<Trigram>] = [:]
            for number in Set(numbers) {
                let text = NGramIndexQueryTests.randomBytes(&random, count: 0...40)
                let trigrams = Set(text.count < 3 ? [] : (0...(text.count - 3)).map { Trigram(text[$0], text[$0 + 1], text[$0 + 2]) })
                unitTrigrams[number] = trigrams
                index.add(Array(trigrams), to: number)
            }
            for _ in 0..<50 {
                let query = NGramIndexQueryTests.randomQuery(&random)
                let expected = Set(unitTrigrams.filter { NGramIndexQueryTests.admits(query, $0.value) }.keys)
                // `nil` says every unit can match.
                let found = index.units(satisfying: query) ?? Set(unitTrigrams.keys)
                #expect(found == expected, "\(query)")
            }
        }
    }
}
