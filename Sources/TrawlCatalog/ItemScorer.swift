import TrawlKernels

/// Decides whether one item matches every query word and computes its rank, in one pass over the
/// item's words (the forward index), with the vocabulary words tagged by the searcher.
struct ItemScorer {
    // The catalog's forward index and orders and the searcher's word tags, held once for the
    // whole search.
    private let forward: ForwardIndexReader
    private let orders: [UInt32]
    private let fieldWeights: [Int]
    private let matchedWords: [UInt64]
    private let wordMasks: [UInt16]
    private let exactMasks: [UInt16]
    private let wordTypos: [UInt32]
    private let wordCount: Int
    private let allWords: UInt16
    private let exactBytes: [[UInt8]]
    // Per query word, reused between items.
    private var typos: [Int]
    private var weights: [Int]
    private var positions: [Int]
    private var pairs: [Int]
    /// A stored item's words and field bounds, decoded (``ForwardIndexReader/withWords(of:words:bounds:_:)``).
    private var itemWords: [UInt32] = []
    private var itemBounds: [UInt32] = []

    init(words: [QueryWord], catalog: Catalog, matchedWords: [UInt64], wordMasks: [UInt16], exactMasks: [UInt16],
         wordTypos: [UInt32]) {
        forward = catalog.forwardIndex
        orders = catalog.orders
        fieldWeights = catalog.fields.map(\.weight)
        self.matchedWords = matchedWords
        self.wordMasks = wordMasks
        self.exactMasks = exactMasks
        self.wordTypos = wordTypos
        wordCount = words.count
        allWords = words.isEmpty ? 0 : UInt16.max >> UInt16(16 - words.count)
        exactBytes = words.map(\.bytes)
        typos = Array(repeating: 0, count: words.count)
        weights = Array(repeating: 0, count: words.count)
        positions = Array(repeating: 0, count: words.count)
        pairs = Array(repeating: 0, count: max(0, words.count - 1))
    }

    /// The most a pair of query words adds to proximity (apart, in other fields, or reversed).
    static let farthest = 8

    /// How far ahead of the item being ranked its bounds and order, then its words, are asked for.
    static let boundsAhead = 16, wordsAhead = 8

    // The matches of a query are scattered over the forward index, and ranking them one by one
    // waits for several cache misses per item (its bounds, words and order) unless they are asked
    // for early: the bounds and order first, the words once the bounds have come.

    /// Starts loading item `item`'s bounds and order.
    func prefetchBounds(of item: Int) {
        forward.prefetchBounds(of: item)
        orders.withUnsafeBytes { trawl_prefetch($0.baseAddress! + item * 4, 4) }
    }

    /// Starts loading item `item`'s words (reading its bounds).
    func prefetchWords(of item: Int) { forward.prefetchWords(of: item) }

    /// Both prefetches for the items of `items` ahead of `index`.
    func prefetch(_ items: UnsafeBufferPointer<UInt32>, at index: Int) {
        if index + Self.boundsAhead < items.count { prefetchBounds(of: Int(items[index + Self.boundsAhead])) }
        if index + Self.wordsAhead < items.count { prefetchWords(of: Int(items[index + Self.wordsAhead])) }
    }

    /// The rank of `item`, or nil when a query word is missing from it.
    mutating func rank(item: Int) -> CatalogResults.Rank? {
        let order = Int(orders[item])
        // With no text to be about, no item is likelier for being short: insertion order alone.
        guard wordCount > 0 else {
            return CatalogResults.Rank(typos: 0, proximity: 0, fieldWeight: 0, exactField: false, exactWords: 0, length: 0, order: order)
        }
        var words: [UInt32] = [], bounds: [UInt32] = []
        swap(&words, &itemWords)
        swap(&bounds, &itemBounds)
        defer {
            swap(&words, &itemWords)
            swap(&bounds, &itemBounds)
        }
        let forward = forward
        return forward.withWords(of: item, words: &words, bounds: &bounds) { words, bounds in rank(words: words, bounds: bounds, order: order) }
    }

    /// The rank of an item of order `order` whose field `f` holds `words[bounds[f]..<bounds[f + 1]]`.
    private mutating func rank(words: UnsafeBufferPointer<UInt32>, bounds: UnsafeBufferPointer<UInt32>, order: Int) -> CatalogResults.Rank? {
        let fieldCount = fieldWeights.count
        let base = 0
        let length = Int(bounds[base + fieldCount] &- bounds[base])
        var matched: UInt16 = 0
        var exact: UInt16 = 0
        var exactField = false
        for index in 0..<wordCount { typos[index] = 3; weights[index] = 0 }
        for index in pairs.indices { pairs[index] = Self.farthest }
        do {
            for field in 0..<fieldCount {
                let start = Int(bounds[base + field]), end = Int(bounds[base + field + 1])
                guard start < end else { continue }
                let weight = fieldWeights[field]
                var seenHere: UInt16 = 0
                var exactRun = end - start == wordCount
                for position in start..<end {
                    let word = Int(words[position])
                    // Most words match nothing: one bit of a small table tells (it stays in cache).
                    guard matchedWords[word >> 6] & 1 << UInt64(word & 63) != 0 else { exactRun = false; continue }
                    let mask = wordMasks[word]
                    if exactRun, exactMasks[word] & (1 << UInt16(position - start)) == 0 { exactRun = false }
                    guard mask != 0 else { continue }
                    matched |= mask
                    exact |= exactMasks[word]
                    let packed = wordTypos[word]
                    var bits = mask
                    while bits != 0 {
                        let index = bits.trailingZeroBitCount
                        bits &= bits - 1
                        let typo = Int(packed >> UInt32(2 * index) & 3)
                        // The field weight counts only a word's fewest-typo matches (as
                        // Meilisearch's field rule does): a typo in the title lends no weight to
                        // an exact match in the body. (A negative weight counts as none.)
                        if typo < typos[index] {
                            typos[index] = typo
                            weights[index] = Swift.max(weight, 0)
                        } else if typo == typos[index], weight > weights[index] {
                            weights[index] = weight
                        }
                        positions[index] = position
                        let bit = UInt16(1) << UInt16(index)
                        seenHere |= bit
                        // The pair before this word and the pair after it, when both are in this field.
                        if index > 0, seenHere & (bit >> 1) != 0 {
                            let distance = position - positions[index - 1]
                            let cost = distance > 0 ? distance : 1 - distance
                            if cost < pairs[index - 1] { pairs[index - 1] = cost }
                        }
                        if index + 1 < wordCount, seenHere & (bit << 1) != 0 {
                            let distance = positions[index + 1] - position
                            let cost = distance > 0 ? distance : 1 - distance
                            if cost < pairs[index] { pairs[index] = cost }
                        }
                    }
                }
                if exactRun { exactField = true }
            }
        }
        guard matched == allWords else { return nil }
        var typoSum = 0, weightSum = 0, proximity = 0
        for index in 0..<wordCount { typoSum += typos[index]; weightSum += weights[index] }
        for cost in pairs { proximity += min(cost, Self.farthest) }
        return CatalogResults.Rank(typos: typoSum, proximity: proximity, fieldWeight: weightSum, exactField: exactField,
                                   exactWords: exact.nonzeroBitCount, length: length, order: order)
    }
}
