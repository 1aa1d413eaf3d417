#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TrawlNGram
import TrawlStorage

/// Every distinct folded word of a catalog, numbered in order of first appearance, with a byte-order
/// listing that serves prefix ranges and typo-tolerant lookups.
///
/// The words sharing a prefix form one range of the byte-ordered words, and a trie over them
/// (``WordTrie``) lets a Levenshtein walk (one row of edit distances per depth) prune whole ranges
/// without an automaton. Hand-written because no package in reach does typo-tolerant lookup.
struct Vocabulary: Sendable {
    /// The words' bytes, back to back.
    private(set) var bytes: [UInt8] = []
    /// Where each word starts in `bytes`; one more entry than words.
    private(set) var starts: [UInt32] = [0]
    private var numbers: WordTable
    /// Word numbers in byte order of their words, for the words added before the last `sort()`.
    private var sorted: [UInt32] = []
    /// The trie over `sorted`, built when a change adds many words and otherwise by the first lookup
    /// that needs it: an upsert that adds a word would rebuild it each time (several times the cost
    /// of ordering the new words). A new box per change, so that copies of
    /// the vocabulary keep theirs.
    private var trieBox = TrieBox()

    private final class TrieBox: Sendable {
        let trie = Mutex<WordTrie?>(nil)
    }
    /// The length of the longest word, in bytes.
    private var longest = 0
    /// The shared n-gram index with the words as its units: which words contain a piece of text.
    /// Built by the first search inside words (most catalogs never have one, and a stored catalog
    /// opens without it: it was a third of opening Debian's), then grown with the vocabulary
    /// (words are never taken out), a few dictionary updates per new word.
    private var gramsBox = GramsBox()

    /// The n-gram index over the first `count` words, once built.
    private final class GramsBox: Sendable {
        let grams = Mutex<(index: NGramIndex, count: Int)?>(nil)
    }

    var count: Int { starts.count - 1 }

    /// The bytes of its words, where each starts, their byte order and the table numbering them
    /// (the trie and the trigram index apart).
    var byteCount: Int { bytes.count + 4 * (starts.count + sorted.count) + numbers.byteCount }

    /// An empty vocabulary; tests weaken its table's hash (`hashBits`) so that words collide.
    init(hashBits: Int = 24) { numbers = WordTable(hashBits: hashBits) }

    /// The number of `word`, added when new.
    mutating func number(adding word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        number(adding: word, key: WordTable.key(word))
    }

    /// The number of `word`, whose table key is `key`, added when new.
    mutating func number(adding word: UnsafeBufferPointer<UInt8>, key: WordTable.Key) -> UInt32 {
        if let number = number(of: word, key: key) { return number }
        let number = UInt32(count)
        numbers.insert(number, key: key)
        bytes.append(contentsOf: word)
        starts.append(UInt32(bytes.count))
        longest = max(longest, word.count)
        return number
    }

    /// The number of `word` (folded), if the catalog has it.
    func number(of word: String) -> UInt32? {
        var word = word
        return word.withUTF8 { number(of: $0, key: WordTable.key($0)) }
    }

    /// The number of `word` (folded), whose table key is `key`, if the vocabulary has it.
    func number(of word: UnsafeBufferPointer<UInt8>, key: WordTable.Key) -> UInt32? {
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                numbers.number(of: word, key: key) { UnsafeBufferPointer(rebasing: bytes[Int(starts[Int($0)])..<Int(starts[Int($0) + 1])]) }
            }
        }
    }

    /// The bytes of word `number`.
    func word(_ number: UInt32) -> ArraySlice<UInt8> { bytes[Int(starts[Int(number)])..<Int(starts[Int(number) + 1])] }

    func string(_ number: UInt32) -> String { String(decoding: word(number), as: UTF8.self) }

    /// Places the words added since the last call in byte order (a merge, linear in the vocabulary).
    mutating func sort() {
        guard sorted.count < count else { return }
        // A built n-gram index grows with the words, in place when no copy shares it.
        if isKnownUniquelyReferenced(&gramsBox) {
            gramsBox.grams.withLock { built in
                if built != nil { addGrams(to: &built!) }
            }
        } else if var built = gramsBox.grams.withLock({ $0 }) {
            addGrams(to: &built)
            gramsBox = GramsBox()
            gramsBox.grams.withLock { $0 = built }
        }
        let added = (sorted.count..<count).map(UInt32.init).sorted { less($0, $1) }
        var merged: [UInt32] = []
        merged.reserveCapacity(count)
        var old = 0, new = 0
        while old < sorted.count, new < added.count {
            if less(added[new], sorted[old]) { merged.append(added[new]); new += 1 } else { merged.append(sorted[old]); old += 1 }
        }
        merged.append(contentsOf: sorted[old...])
        merged.append(contentsOf: added[new...])
        sorted = merged
        trieBox = TrieBox()
        // A build or a load adds most of the words: the first keystroke need not wait for the trie.
        if added.count * 8 >= merged.count { _ = trie }
    }

    /// Adds the words `built` lacks to it.
    private func addGrams(to built: inout (index: NGramIndex, count: Int)) {
        for number in built.count..<count {
            let word = word(UInt32(number))
            guard word.count >= 3 else { continue }
            // Each distinct trigram once, collected in one pass over the word's bytes: a word of
            // megabytes (one stored item can hold one) costs about its bytes, not a posting
            // lookup per trigram.
            let keys = word.withUnsafeBufferPointer { Trigram.distinctKeys(in: $0) }
            built.index.add(keys.map { Trigram(key: $0) }, to: UInt32(number))
        }
        built.count = count
    }

    /// The n-gram index over the words, built by the first call.
    var grams: NGramIndex {
        gramsBox.grams.withLock { built in
            if built == nil || built!.count < count {
                var made = built ?? (NGramIndex(), 0)
                addGrams(to: &made)
                built = made
            }
            return built!.index
        }
    }

    /// Builds the trie now rather than at the first lookup that needs it.
    func buildTrie() { _ = trie }

    /// The trie over the byte-ordered words, built once per change.
    private var trie: WordTrie {
        trieBox.trie.withLock { trie in
            if let trie { return trie }
            let built = WordTrie(count: sorted.count) { word(sorted[$0]) }
            trie = built
            return built
        }
    }

    private func less(_ a: UInt32, _ b: UInt32) -> Bool { word(a).lexicographicallyPrecedes(word(b)) }

    /// Calls `report` with each word within `typos` edits (Levenshtein, counted in scalars of
    /// folded text, as the typo budget counts letters) of `query`, or, when `prefix` is true, each
    /// word that begins within `typos` edits of `query`, with its distance.
    func forEachMatch(of query: [UInt8], typos: Int, prefix: Bool, _ report: (UInt32, Int) -> Void) {
        // Past the trie's depth, typos are not looked for: such a word matches as typed.
        if typos > 0, query.count > WordTrie.depthLimit { return forEachMatch(of: query, typos: 0, prefix: prefix, report) }
        if typos == 0, !prefix {
            if let number = query.withUnsafeBufferPointer({ number(of: $0, key: WordTable.key($0)) }) { report(number, 0) }
            return
        }
        let trie = trie
        if typos == 0 {
            // The trie holds words to its depth limit: a longer prefix is checked word by word.
            let reachable = query.count <= WordTrie.depthLimit ? query : Array(query.prefix(WordTrie.depthLimit))
            guard let node = trie.node(reachedBy: reachable) else { return }
            for index in trie.words(under: node) where reachable.count == query.count || word(sorted[index]).starts(with: query) {
                report(sorted[index], 0)
            }
            return
        }
        // One row of edit distances per depth in bytes (a step inside a scalar copies the row), all
        // in one buffer.
        let query = Self.scalars(of: query[...])
        let width = query.count + 1
        // A walk stops once every distance passes the budget: past the query's scalars and the
        // typos, at most four bytes each. Rows for the longest word would be gigabytes when one
        // word is megabytes long.
        let depth = min(longest, 4 * (query.count + typos + 2), WordTrie.depthLimit)
        var rows = [Int](repeating: 0, count: width * (depth + 2))
        for column in 0..<width { rows[column] = column }
        sorted.withUnsafeBufferPointer { sorted in
            trie.nodes.withUnsafeBufferPointer { nodes in
                rows.withUnsafeMutableBufferPointer { rows in
                    query.withUnsafeBufferPointer { query in
                        withoutActuallyEscaping(report) { report in
                            let walk = Walk(sorted: sorted, nodes: nodes, query: query, typos: typos, prefix: prefix, rows: rows, report: report)
                            walk.visit(node: 0, depth: 0, scalars: 0, best: Int.max)
                        }
                    }
                }
            }
        }
    }

    /// Calls `report` with each word that contains `piece` (folded, at least three bytes: shorter
    /// pieces are inside too many words to be worth finding), in no particular order. The n-gram
    /// index gives the words holding every trigram of `piece`; each is then checked.
    func forEachWord(containing piece: [UInt8], _ report: (UInt32) -> Void) {
        guard piece.count >= 3, let literal = QueryLiteral(bytes: piece, caseless: Array(repeating: false, count: piece.count)),
              let numbers = grams.units(satisfying: .literal(literal)) else { return }
        for number in numbers where word(number).firstRange(of: piece) != nil { report(number) }
    }

    // MARK: Stored form

    /// How many sections ``appendSections(to:)`` writes.
    static let sectionCount = 3

    /// Writes the words' bytes, where each starts, and their byte order (the trie, the table and
    /// the n-gram index are made from them when read).
    func appendSections(to writer: inout StoredSections.Writer) {
        precondition(sorted.count == count, "a vocabulary is stored sorted")
        writer.append(bytes)
        writer.append(varints: starts, ascending: true)
        writer.append(varints: sorted)
    }

    /// The vocabulary sections `first...` of `reader` hold, checked: each word non-empty and
    /// within the bytes, the byte order strictly ascending (so the words are distinct and the
    /// order a permutation), no word longer than ``WordTrie`` can walk past.
    init(sections reader: StoredSections.Reader, first: Int) throws(StoredFormatError) {
        self.init()
        let bytes = try reader.array(first), starts = try reader.varints(first + 1, ascending: true)
        let sorted = try reader.varints(first + 2, count: max(0, starts.count - 1))
        guard starts.first == 0, starts.last == UInt32(truncatingIfNeeded: bytes.count), bytes.count <= Int(UInt32.max) else { throw .corrupt("vocabulary bounds") }
        var longest = 0
        for index in 1..<starts.count {
            guard starts[index] > starts[index - 1] else { throw .corrupt("vocabulary bounds") }
            longest = max(longest, Int(starts[index] - starts[index - 1]))
        }
        let count = starts.count - 1
        self.bytes = bytes
        self.starts = starts
        self.longest = longest
        var table = WordTable()
        let ordered = bytes.withUnsafeBufferPointer { bytes in
            /// Word `number`'s bytes.
            func word(_ number: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[Int(starts[number])..<Int(starts[number + 1])]) }
            for index in sorted.indices {
                guard Int(sorted[index]) < count else { return false }
                guard index > 0 else { continue }
                let a = word(Int(sorted[index - 1])), b = word(Int(sorted[index]))
                let common = memcmp(a.baseAddress!, b.baseAddress!, min(a.count, b.count))
                guard common < 0 || (common == 0 && a.count < b.count) else { return false }
            }
            for number in 0..<count { table.insert(UInt32(number), key: WordTable.key(word(number))) }
            return true
        }
        guard ordered else { throw .corrupt("vocabulary order") }
        self.sorted = sorted
        numbers = table
    }

    /// The scalar values of valid UTF-8 `bytes`.
    static func scalars(of bytes: ArraySlice<UInt8>) -> [UInt32] {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(bytes.count)
        var partial = ScalarSteps()
        for byte in bytes { if let scalar = partial.take(byte) { scalars.append(scalar) } }
        return scalars
    }

    /// Assembles scalars from UTF-8 bytes given one at a time.
    struct ScalarSteps {
        private var value: UInt32 = 0
        /// The continuation bytes the scalar begun still needs.
        private(set) var remaining = 0

        /// The scalar `byte` completes, or nil when it begins or continues one.
        @inline(__always)
        mutating func take(_ byte: UInt8) -> UInt32? {
            if remaining > 0 {
                value = value << 6 | UInt32(byte & 0x3F)
                remaining -= 1
                return remaining == 0 ? value : nil
            }
            guard byte >= 0xC0 else { return UInt32(byte) }
            remaining = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1
            value = UInt32(byte) & (0x3F >> UInt32(remaining))
            return nil
        }
    }

    /// Fills `next`, the row of edit distances for a word's first `depth` scalars (column `j`: to
    /// the query's first `j` scalars), from `row`, the row for its first `depth - 1`, whose last
    /// scalar is `scalar`; returns the row's smallest value (no later row has a smaller one).
    @inline(__always)
    static func nextRow(after row: UnsafePointer<Int>, into next: UnsafeMutablePointer<Int>, query: UnsafeBufferPointer<UInt32>,
                        scalar: UInt32, depth: Int) -> Int {
        next[0] = depth
        var minimum = depth
        for column in 1..<(query.count + 1) {
            let substitution = row[column - 1] + (query[column - 1] == scalar ? 0 : 1)
            let value = Swift.min(substitution, row[column] + 1, next[column - 1] + 1)
            next[column] = value
            if value < minimum { minimum = value }
        }
        return minimum
    }

    /// The edit distance ``forEachMatch(of:typos:prefix:_:)`` reports for one word, computed for
    /// that word alone (to filter the matches of a shorter query).
    struct Distance {
        let query: [UInt32]
        let typos: Int
        let prefix: Bool
        private var previous: [Int]
        private var current: [Int]

        init(query: [UInt8], typos: Int, prefix: Bool) {
            let query = Vocabulary.scalars(of: query[...])
            self.query = query
            self.typos = typos
            self.prefix = prefix
            previous = Array(0...query.count)
            current = previous
        }

        /// The edits between the query and `word` (when `prefix`, the word's closest beginning),
        /// or nil when they exceed the budget.
        mutating func typos(of word: ArraySlice<UInt8>) -> Int? {
            let width = query.count + 1
            for column in 0..<width { previous[column] = column }
            var best = prefix ? previous[width - 1] : Int.max
            var depth = 0
            var steps = ScalarSteps()
            for byte in word {
                guard let scalar = steps.take(byte) else { continue }
                depth += 1
                let minimum = query.withUnsafeBufferPointer { query in
                    previous.withUnsafeBufferPointer { previous in
                        current.withUnsafeMutableBufferPointer { current in
                            Vocabulary.nextRow(after: previous.baseAddress!, into: current.baseAddress!, query: query, scalar: scalar, depth: depth)
                        }
                    }
                }
                swap(&previous, &current)
                if prefix { best = Swift.min(best, previous[width - 1]) }
                // Every later row is at least this row's minimum.
                if minimum > typos { return prefix && best <= typos ? best : nil }
            }
            let distance = prefix ? best : previous[width - 1]
            return distance <= typos ? distance : nil
        }
    }

    /// The length of word `number` in bytes.
    func length(of number: UInt32) -> Int { Int(starts[Int(number) + 1] - starts[Int(number)]) }

    /// A Levenshtein walk down the trie; see ``forEachMatch(of:typos:prefix:_:)``.
    private struct Walk {
        let sorted: UnsafeBufferPointer<UInt32>
        let nodes: UnsafeBufferPointer<WordTrie.Node>
        let query: UnsafeBufferPointer<UInt32>
        let typos: Int
        let prefix: Bool
        let rows: UnsafeMutableBufferPointer<Int>
        let report: (UInt32, Int) -> Void

        /// Visits `node`, `depth` bytes down, the end of the word's first `scalars` scalars (its
        /// row is theirs).
        func visit(node: Int, depth: Int, scalars: Int, best: Int) {
            let width = query.count + 1
            let row = rows.baseAddress! + depth * width
            let last = row[query.count]
            var minimum = row[0]
            for column in 1..<width where row[column] < minimum { minimum = row[column] }
            let end = Int(nodes[node].end)
            let isWord = nodes[node].isWord
            let first = Int(nodes[node].firstWord)
            if prefix {
                let effective = min(best, last)
                if effective <= typos, effective == 0 || minimum >= effective {
                    for index in first..<Int(nodes[end].firstWord) { report(sorted[index], effective) }
                    return
                }
                if minimum > typos {
                    if best <= typos { for index in first..<Int(nodes[end].firstWord) { report(sorted[index], best) } }
                    return
                }
                if isWord, effective <= typos { report(sorted[first], effective) }
            } else {
                if isWord, last <= typos { report(sorted[first], last) }
                if minimum > typos { return }
            }
            descend(from: node, depth: depth, scalars: scalars, best: prefix ? Swift.min(best, last) : best, steps: ScalarSteps())
        }

        /// Visits the children of `node` (`depth` bytes down; `steps` holds the part of a scalar its
        /// bytes end in): where a child's byte ends a scalar, with the row that scalar makes; inside
        /// one, its children, with the same row (no word or new distance ends inside a scalar).
        private func descend(from node: Int, depth: Int, scalars: Int, best: Int, steps: ScalarSteps) {
            let width = query.count + 1
            let row = rows.baseAddress! + depth * width
            let next = row + width
            var child = node + 1
            while child < Int(nodes[node].end) {
                var childSteps = steps
                if let scalar = childSteps.take(nodes[child].byte) {
                    _ = Vocabulary.nextRow(after: row, into: next, query: query, scalar: scalar, depth: scalars + 1)
                    visit(node: child, depth: depth + 1, scalars: scalars + 1, best: best)
                } else {
                    next.update(from: row, count: width)
                    descend(from: child, depth: depth + 1, scalars: scalars, best: best, steps: childSteps)
                }
                child = Int(nodes[child].end)
            }
        }
    }
}
