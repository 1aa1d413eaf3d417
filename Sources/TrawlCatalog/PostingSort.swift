/// Postings of many lists made at once: (item, list, tag) triples, given in ascending item order,
/// grouped by list in one counting sort.
///
/// A catalog keeps each list in its own array, and the words of a text come in no order:
/// appending posting by posting reads the header and the last posting of a list far from the one
/// before, two cache misses a posting, which made most of a build's time. Counting each list's
/// postings in one array the cache holds and placing them back to back writes each posting once;
/// a list's run is then appended in one copy.
struct PostingSort {
    /// Where list `l`'s postings are: `items[starts[l]..<starts[l + 1]]`, ascending, and beside
    /// each its tags (the tags of an item given twice for one list, or-ed).
    private(set) var starts: [Int]
    private(set) var items: [UInt32] = []
    private(set) var tags: [UInt8] = []

    /// Sorts the triples that `forEach` gives (it is called twice and must give the same ones;
    /// `list` below `listCount`).
    init(listCount: Int, _ forEach: ((_ item: UInt32, _ list: Int, _ tag: UInt8) -> Void) -> Void) {
        starts = [Int](repeating: 0, count: listCount + 1)
        var lastItem = [UInt32](repeating: .max, count: listCount)
        starts.withUnsafeMutableBufferPointer { starts in
            lastItem.withUnsafeMutableBufferPointer { lastItem in
                forEach { item, list, _ in
                    if lastItem[list] != item {
                        lastItem[list] = item
                        starts[list + 1] += 1
                    }
                }
            }
        }
        for list in 0..<listCount { starts[list + 1] += starts[list] }
        // Every place is written once before it is read, so the arrays start uninitialized: a
        // large batch's postings are hundreds of MB, and fresh memory is costly to touch twice.
        let count = starts[listCount]
        var next = starts
        var tags: [UInt8] = []
        items = [UInt32](unsafeUninitializedCapacity: count) { items, itemCount in
            tags = [UInt8](unsafeUninitializedCapacity: count) { tags, tagCount in
                next.withUnsafeMutableBufferPointer { next in
                    lastItem.withUnsafeMutableBufferPointer { lastItem in
                        for list in lastItem.indices { lastItem[list] = .max }
                        forEach { item, list, tag in
                            if lastItem[list] != item {
                                lastItem[list] = item
                                items[next[list]] = item
                                tags[next[list]] = tag
                                next[list] += 1
                            } else {
                                tags[next[list] - 1] |= tag
                            }
                        }
                        // The second pass gave what the first counted: every place was written.
                        for list in 0..<listCount { precondition(next[list] == starts[list + 1], "forEach gave other triples the second time") }
                    }
                }
                tagCount = count
            }
            itemCount = count
        }
        self.tags = tags
    }

    /// The postings of list `list`.
    func range(of list: Int) -> Range<Int> { starts[list]..<starts[list + 1] }
}
