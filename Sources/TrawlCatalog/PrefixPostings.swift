import Dispatch
import TrawlConcurrency
import TrawlStorage

/// Merged postings of the short prefixes that many words share: for such a prefix, every item
/// holding a word that starts with it, ascending, each with the fields holding those words (a
/// field tag, as ``Catalog/postingTags`` has).
///
/// A one- to four-letter query word (no typo budget) matches every word of its prefix range: "l"
/// matches ten thousand words of a million-item catalog, whose postings lie all over memory.
/// Reading one merged list instead is a sequential walk. Meilisearch keeps prefix postings for the
/// same reason; like it, only prefixes with many postings get a list, so the memory stays bounded
/// (each posting is in at most `longestPrefix` lists).
///
/// Incremental: items are numbered in insertion order, so an added item's number extends every
/// list it belongs to. Which prefixes have a list is chosen again when the catalog has grown by a
/// quarter (``choose(in:)``); between two choices a prefix may lack a list, and a search then reads
/// the word postings.
struct PrefixPostings: Sendable {
    /// The longest prefix, in bytes, that gets a list.
    static let longestPrefix = 4

    /// By list number, the items ascending and beside each its field tag.
    private var items: [[UInt32]] = []
    private var fieldTags: [[UInt8]] = []
    /// List numbers by prefix (see `key`).
    private var numbers: [UInt64: Int32] = [:]
    /// By word number, the list numbers of its prefixes of 1 to `longestPrefix` bytes (-1: none).
    private var wordLists: [Int32] = []
    /// The catalog's slot count at the last choice.
    private(set) var chosenAt = 0
    /// A stored catalog's lists, read where they lie until the catalog is updated
    /// (``materialize()``); `items` and `fieldTags` are empty meanwhile.
    private var stored: StoredIndex?
    /// How many lists there are.
    private(set) var listCount = 0

    /// The fewest postings a prefix needs for a list in a catalog of `slotCount` numbers: below
    /// that, reading the word postings is cheap enough that a list does not pay.
    static func minimumPostings(slotCount: Int) -> Int { max(32_768, slotCount / 8) }

    /// Whether a catalog of `slotCount` numbers has grown enough since the last choice to choose
    /// again (by a quarter: amortized, each item is read a bounded number of times).
    func isDue(slotCount: Int) -> Bool { slotCount >= chosenAt + chosenAt / 4 + 1 }

    /// Whether no prefix has a list.
    var isEmpty: Bool { numbers.isEmpty }

    /// The list of the items with a word beginning with `prefix`, if it has one.
    func list(forPrefix prefix: [UInt8]) -> Int? {
        guard (1...Self.longestPrefix).contains(prefix.count), let number = numbers[Self.key(prefix)] else { return nil }
        return Int(number)
    }

    /// How many items list `list` holds.
    func count(of list: Int) -> Int {
        guard let stored else { return items[list].count }
        return stored.prefixLists(count: listCount).lists.valueCount(of: list) + items[list].count
    }

    /// The items of list `list`, ascending, and beside each its field tag.
    func itemsAndTags(of list: Int) -> (items: [UInt32], tags: [UInt8]) {
        guard let stored else { return (items[list], fieldTags[list]) }
        let kept = stored.prefixItemsAndTags(of: list, count: listCount)
        return items[list].isEmpty ? kept : (kept.items + items[list], kept.tags + fieldTags[list])
    }

    /// Reads stored lists into `items` and `fieldTags`, before what was added since, for an
    /// update to extend; false when a list was damaged (and read as empty).
    @discardableResult
    mutating func materialize() -> Bool {
        guard let stored else { return true }
        let lists = (0..<listCount).map { stored.prefixItemsAndTags(of: $0, count: listCount) }
        let isComplete = lists.indices.allSatisfy { lists[$0].items.count == stored.prefixLists(count: listCount).lists.valueCount(of: $0) }
        self.stored = nil
        items = lists.indices.map { lists[$0].items + items[$0] }
        fieldTags = lists.indices.map { lists[$0].tags + fieldTags[$0] }
        return isComplete
    }

    /// Records that item `item` holds word `word` of `vocabulary` in the field whose tag is `field`;
    /// the items come in ascending order.
    mutating func add(word: UInt32, of vocabulary: Vocabulary, item: UInt32, field: UInt8) {
        guard !numbers.isEmpty else { return }
        let slot = Int(word) * Self.longestPrefix
        while wordLists.count < slot { appendLists(of: wordLists.count / Self.longestPrefix, bytes: nil) }
        if wordLists.count == slot { appendLists(of: Int(word), bytes: vocabulary.word(word)) }
        for length in 0..<Self.longestPrefix {
            let list = Int(wordLists[slot + length])
            guard list >= 0 else { continue }
            if items[list].last != item {
                items[list].append(item)
                fieldTags[list].append(field)
            } else {
                fieldTags[list][fieldTags[list].count - 1] |= field
            }
        }
    }

    /// Chooses the prefixes with at least `minimum` postings (by default ``minimumPostings(slotCount:)``)
    /// and fills their lists from their words' postings (the live items only).
    mutating func choose(in catalog: Catalog, minimum: Int? = nil) {
        self = PrefixPostings()
        chosenAt = catalog.slotCount
        let vocabulary = catalog.vocabulary
        var counts: [UInt64: Int] = [:]
        for word in 0..<vocabulary.count {
            let bytes = vocabulary.word(UInt32(word))
            let postings = catalog.postingCount(of: word)
            for length in 1...min(Self.longestPrefix, bytes.count) { counts[Self.key(bytes.prefix(length)), default: 0] += postings }
        }
        let minimum = minimum ?? Self.minimumPostings(slotCount: catalog.slotCount)
        // In key order, so that equal catalogs number their lists alike (and store equal bytes).
        for (key, count) in counts.sorted(by: { $0.key < $1.key }) where count >= minimum {
            numbers[key] = Int32(items.count)
            items.append([])
            fieldTags.append([])
            listCount += 1
        }
        guard !numbers.isEmpty else { return }
        for word in 0..<vocabulary.count { appendLists(of: word, bytes: vocabulary.word(UInt32(word))) }
        var wordsOfList = [[UInt32]](repeating: [], count: items.count)
        for slot in wordLists.indices where wordLists[slot] >= 0 { wordsOfList[Int(wordLists[slot])].append(UInt32(slot / Self.longestPrefix)) }
        // A list is the union of its words' postings: their items marked in a bitmap (a
        // catalog's is small enough for the cache) with their field tags or-ed beside, then read
        // back in order. Lists are made on up to four threads, each with its own bitmap.
        let lanes = min(items.count, 4)
        let made = SlotArray<(items: [UInt32], tags: [UInt8])>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { [wordsOfList] lane in
            var marked = [UInt64](repeating: 0, count: (catalog.slotCount + 63) / 64)
            var tags = [UInt8](repeating: 0, count: catalog.slotCount)
            for list in stride(from: lane, to: wordsOfList.count, by: lanes) {
                made.set(list, Self.union(of: wordsOfList[list], in: catalog, marked: &marked, tags: &tags))
            }
        }
        for list in items.indices { (items[list], fieldTags[list]) = made.take(list)! }
    }

    /// The live items holding any of `words`, ascending, and beside each the fields holding them;
    /// `marked` and `tags` (a bit and a byte per slot) are zero before and after.
    private static func union(of words: [UInt32], in catalog: Catalog, marked: inout [UInt64], tags: inout [UInt8]) -> ([UInt32], [UInt8]) {
        let fieldBits = ~Catalog.soleWordTag
        var count = 0
        return marked.withUnsafeMutableBufferPointer { marked in
            tags.withUnsafeMutableBufferPointer { tags in
                catalog.isLive.withUnsafeBufferPointer { isLive in
                    for word in words {
                        let (wordItems, wordTags) = catalog.postingsAndTags(of: Int(word))
                        wordItems.withUnsafeBufferPointer { postings in
                            wordTags.withUnsafeBufferPointer { postingTags in
                                for index in postings.indices where isLive[Int(postings[index])] {
                                    let item = Int(postings[index])
                                    let bit: UInt64 = 1 << UInt64(item & 63)
                                    if marked[item >> 6] & bit == 0 {
                                        marked[item >> 6] |= bit
                                        count += 1
                                    }
                                    tags[item] |= postingTags[index] & fieldBits
                                }
                            }
                        }
                    }
                }
                var listItems = [UInt32](), listTags = [UInt8]()
                listItems.reserveCapacity(count)
                listTags.reserveCapacity(count)
                for index in marked.indices where marked[index] != 0 {
                    var bits = marked[index]
                    marked[index] = 0
                    while bits != 0 {
                        let item = index << 6 | bits.trailingZeroBitCount
                        bits &= bits - 1
                        listItems.append(UInt32(item))
                        listTags.append(tags[item])
                        tags[item] = 0
                    }
                }
                return (listItems, listTags)
            }
        }
    }

    /// Appends word `word`'s list numbers (none when `bytes` is nil: a word added before the choice).
    private mutating func appendLists(of word: Int, bytes: ArraySlice<UInt8>?) {
        for length in 1...Self.longestPrefix {
            guard let bytes, length <= bytes.count, let list = numbers[Self.key(bytes.prefix(length))] else {
                wordLists.append(-1)
                continue
            }
            wordLists.append(list)
        }
    }

}

extension PrefixPostings {
    /// How many sections ``appendSections(to:)`` writes.
    static let sectionCount = 5

    /// Writes each list's prefix key, the lists (their starts, then the lists: read in place),
    /// their tags back to back, and each word's list numbers (plus one; 0 for none); the slot
    /// count at the last choice goes with the catalog's counts.
    func appendSections(to writer: inout StoredSections.Writer) {
        precondition(stored == nil, "stored prefix lists are materialized before they are stored again")
        var keys = [UInt64](repeating: 0, count: items.count)
        for (key, list) in numbers { keys[Int(list)] = key }
        writer.append(values: keys)
        writer.append(inPlaceLists: items)
        writer.append(PackedTags.encoded(fieldTags.flatMap { $0 }))
        writer.append(varints: wordLists.map { UInt32(bitPattern: $0 + 1) })
    }

    /// The prefix lists sections `first...` of `reader` hold, chosen at `chosenAt` slots, of a
    /// catalog of `slotCount` numbers and `wordCount` words whose index `stored` reads the lists
    /// where they lie (each checked when read); each word's lists are checked to be known.
    init(sections reader: StoredSections.Reader, first: Int, chosenAt: Int, slotCount: Int, wordCount: Int,
         stored: StoredIndex) throws(StoredFormatError) {
        let keys = try reader.values(first, as: UInt64.self)
        self.stored = stored
        listCount = keys.count
        // What is added since goes in memory, after the stored lists.
        items = Array(repeating: [], count: keys.count)
        fieldTags = Array(repeating: [], count: keys.count)
        let wordLists = try reader.varints(first + 4)
        guard wordLists.count <= wordCount * Self.longestPrefix, wordLists.count % Self.longestPrefix == 0,
              wordLists.allSatisfy({ $0 <= UInt32(keys.count) }), chosenAt <= slotCount else {
            throw .corrupt("prefix lists")
        }
        self.wordLists = wordLists.map { Int32($0) - 1 }
        // A key no prefix makes is never looked up; two lists under one key leave one unused.
        for (list, key) in keys.enumerated() { numbers[key] = Int32(list) }
        self.chosenAt = chosenAt
    }

    /// A prefix of at most 4 bytes as one number: its length, then its bytes.
    private static func key(_ bytes: some Collection<UInt8>) -> UInt64 {
        var key = UInt64(bytes.count)
        for byte in bytes { key = key << 8 | UInt64(byte) }
        return key
    }
}
