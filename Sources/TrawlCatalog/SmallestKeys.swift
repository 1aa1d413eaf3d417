/// The `limit` smallest keys seen, each with a payload, in a max-heap so a larger key costs one
/// comparison once the heap is full.
struct SmallestKeys<Key: Comparable, Payload> {
    let limit: Int
    private var heap: [(key: Key, payload: Payload)] = []

    init(limit: Int) {
        self.limit = max(0, limit)
        // A limit may stand for "all" (Int.max): room for more grows as keys come.
        heap.reserveCapacity(Swift.min(self.limit, 1024))
    }

    mutating func insert(_ key: Key, _ payload: Payload) {
        if heap.count < limit {
            heap.append((key, payload))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[parent].key < heap[child].key else { break }
                heap.swapAt(parent, child)
                child = parent
            }
        } else if limit > 0, key < heap[0].key {
            heap[0] = (key, payload)
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var largest = parent
                if left < heap.count, heap[largest].key < heap[left].key { largest = left }
                if right < heap.count, heap[largest].key < heap[right].key { largest = right }
                guard largest != parent else { break }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
    }

    /// The largest key kept once `limit` keys are: a key must be smaller to get in. Nil before.
    var admissionLimit: Key? { heap.count == limit && limit > 0 ? heap[0].key : nil }

    /// The kept keys and payloads, smallest key first.
    func sorted() -> [(key: Key, payload: Payload)] { heap.sorted { $0.key < $1.key } }

    /// The kept payloads, in no particular order.
    var payloads: [Payload] { heap.map(\.payload) }
}

/// The best ranks of a search (a smaller rank is better) and their items.
typealias BestRanks = SmallestKeys<CatalogResults.Rank, UInt32>
