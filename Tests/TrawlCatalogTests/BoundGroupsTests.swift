import Testing
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
}
