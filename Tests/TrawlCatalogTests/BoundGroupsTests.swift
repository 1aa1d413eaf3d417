import Testing
import TrawlTestSupport
@testable import TrawlCatalog

@Suite struct BoundGroupsTests {
    @Test func groupsBestSumFirstKeepingTheOrderItemsCameIn() throws {
        let groups = try #require(BoundGroups(items: [5, 6, 7, 8, 9], sums: [3, 1, 3, 2, 1]))
        #expect(groups.sums == [1, 2, 3])
        #expect(groups.starts == [0, 2, 3, 5])
        #expect(groups.items == [6, 9, 8, 5, 7])
    }

    @Test func declinesMoreDistinctSumsThanItsTableHolds() {
        let sums = (0..<UInt64(BoundGroups.capacity + 1)).map { $0 * 7 }
        #expect(BoundGroups(items: Array(0..<UInt32(sums.count)), sums: sums) == nil)
        #expect(BoundGroups(items: Array(0..<UInt32(sums.count - 1)), sums: Array(sums.dropLast())) != nil)
    }

    /// Groups made as a search asks for them come best sum first, each in the order its items came,
    /// as sorting the items by sum (stably) gives them; past the groups found by passes, a rest
    /// with too many distinct sums comes as one group under the least of them.
    @Test func bestFirstGroupsComeAsASortByBoundGives() {
        var random = SeededGenerator(seed: 0xB0F)
        var ungroupedRests = 0
        for round in 0..<60 {
            let distinct = round % 3 == 0 ? BoundGroups.capacity + 100 : Int.random(in: 1...12, using: &random)
            let count = round % 3 == 0 ? Int.random(in: 1500...3000, using: &random) : Int.random(in: 0...300, using: &random)
            let sums = (0..<count).map { _ in UInt64.random(in: 0..<UInt64(distinct), using: &random) * 1_000_003 }
            let items = (0..<UInt32(count)).map { $0 * 3 }
            func members(_ keeps: (UInt64) -> Bool) -> [UInt32] { zip(items, sums).filter { keeps($0.1) }.map(\.0) }
            let ordered = Array(Set(sums)).sorted()
            let passed = ordered.prefix(BestFirstGroups.passGroups), rest = ordered.dropFirst(passed.count)
            var expected = passed.map { sum in (sum, members { $0 == sum }) }
            if rest.count <= BoundGroups.capacity {
                expected += rest.map { sum in (sum, members { $0 == sum }) }
            } else {
                expected.append((rest.first!, members { $0 > passed.last! }))
                ungroupedRests += 1
            }
            var groups = BestFirstGroups(items: items, sums: sums)
            var given: [(sum: UInt64, items: [UInt32])] = []
            while let group = groups.next() { given.append(group) }
            #expect(given.map(\.sum) == expected.map(\.0), "round \(round)")
            #expect(given.map(\.items) == expected.map(\.1), "round \(round)")
        }
        #expect(ungroupedRests > 0)
    }
}
