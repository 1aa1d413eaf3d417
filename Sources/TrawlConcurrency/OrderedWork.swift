#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Items produced on one thread, handed out in order in batches.
package final class OrderedQueue<Item: Sendable, Finish: Sendable>: @unchecked Sendable { // all state is guarded by `mutex`
    private var items: [Item] = []
    private var head = 0
    private var finished: Finish?
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    package init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    package func push(_ item: Item) {
        pthread_mutex_lock(&mutex)
        items.append(item)
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    package func finish(_ value: Finish) {
        pthread_mutex_lock(&mutex)
        finished = value
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// Up to `limit` items; waits while production goes on and nothing is ready; `nil` at the end.
    package func nextBatch(limit: Int) -> [Item]? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while head == items.count && finished == nil { pthread_cond_wait(&condition, &mutex) }
        guard head < items.count else { return nil }
        let end = min(items.count, head + limit)
        let batch = Array(items[head..<end])
        head = end
        // Handed-out items are dropped once they are at least half of the array (amortized
        // constant time an item): kept, a million items would live until the queue does.
        if head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return batch
    }

    /// What production returned (valid once `nextBatch` returned `nil`).
    package var result: Finish {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return finished!
    }
}

/// Lets worker threads fill distinct slots of a results array without locks.
///
/// The slots live in memory allocated once: writing through `Array` would not be safe from
/// several threads, since `withUnsafeMutableBufferPointer` briefly swaps the array's storage out.
package final class SlotArray<Element>: @unchecked Sendable { // each index is written by exactly one worker
    private let slots: UnsafeMutableBufferPointer<Element?>

    /// `count` empty slots.
    package init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.baseAddress?.deinitialize(count: slots.count)
        slots.deallocate()
    }

    /// Fills slot `index` (from one worker only).
    package func set(_ index: Int, _ value: Element) { slots[index] = value }

    /// What slot `index` holds (once its worker is done).
    package func value(at index: Int) -> Element? { slots[index] }

    /// Empties slot `index`, returning what it held.
    package func take(_ index: Int) -> Element? {
        defer { slots[index] = nil }
        return slots[index]
    }
}

/// Runs `produce` on a background thread while `work` runs on the items produced so far, in
/// parallel batches; `consume` receives each outcome in the order the items were produced (so
/// output is deterministic). Returns what `produce` returned.
///
/// With `inline`, everything runs on the calling thread, one item at a time: for a few items
/// that `produce` has at hand, starting threads and handing items over costs more than the work.
package func processInOrder<Item: Sendable, Outcome: Sendable, Finish: Sendable>(
    parallel: Bool = true,
    inline: Bool = false,
    produce: @escaping @Sendable (_ emit: (Item) -> Void) -> Finish,
    work: @escaping @Sendable (Item) -> Outcome,
    consume: (Outcome) -> Void
) -> Finish {
    if inline { return produce { consume(work($0)) } }
    let queue = OrderedQueue<Item, Finish>()
    DispatchQueue.global().async {
        queue.finish(produce { queue.push($0) })
    }
    while let batch = queue.nextBatch(limit: parallel ? 64 : 1) {
        if parallel && batch.count > 1 {
            let slots = SlotArray<Outcome>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in slots.set(index, work(batch[index])) }
            for index in batch.indices { if let outcome = slots.take(index) { consume(outcome) } }
        } else {
            for item in batch { consume(work(item)) }
        }
    }
    return queue.result
}
