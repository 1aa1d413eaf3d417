import Testing
@testable import TrawlFiles
import TrawlConcurrency

@Suite struct OrderedQueueTests {
    /// An item whose release can be observed.
    final class Tracked: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func itemsComeOutInOrderInBatchesOfAtMostTheLimit() {
        let queue = OrderedQueue<Int, String>()
        for number in 0..<10_000 { queue.push(number) }
        queue.finish("done")
        var seen: [Int] = []
        while let batch = queue.nextBatch(limit: 7) {
            #expect((1...7).contains(batch.count))
            seen += batch
        }
        #expect(seen == Array(0..<10_000))
        #expect(queue.result == "done")
        #expect(queue.nextBatch(limit: 7) == nil)
    }

    @Test func itemsHandedOutAreNotKeptByTheQueue() {
        let queue = OrderedQueue<Tracked, Void>()
        var released: [Int] = []
        weak var first: Tracked?
        weak var last: Tracked?
        do {
            let items = (0..<1000).map(Tracked.init)
            first = items.first
            last = items.last
            for item in items { queue.push(item) }
        }
        queue.finish(())
        while let batch = queue.nextBatch(limit: 1) { released.append(batch[0].number) }
        #expect(released == Array(0..<1000))
        // The queue lives on (it is used below), yet what it handed out is gone.
        #expect(first == nil)
        #expect(last == nil)
        #expect(queue.nextBatch(limit: 1) == nil)
    }

    @Test func itemsPushedWhileOthersAreTakenKeepTheirOrder() {
        let queue = OrderedQueue<Int, Void>()
        var seen: [Int] = []
        for round in 0..<100 {
            for number in 0..<(round % 7 + 1) { queue.push(round * 10 + number) }
            if let batch = queue.nextBatch(limit: 3) { seen += batch }
        }
        queue.finish(())
        while let batch = queue.nextBatch(limit: 3) { seen += batch }
        let pushed = (0..<100).flatMap { round in (0..<(round % 7 + 1)).map { round * 10 + $0 } }
        #expect(seen == pushed)
    }
}
