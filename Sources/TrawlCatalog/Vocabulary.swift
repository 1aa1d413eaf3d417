/// Every distinct folded word of a catalog, numbered in order of first appearance, with a byte-order
/// listing that serves prefix ranges and typo-tolerant lookups.
///
/// The byte-ordered array doubles as an implicit trie: the words sharing a prefix form one range,
/// so a Levenshtein walk (one row of edit distances per depth) prunes whole ranges without building
/// a trie or an automaton. Hand-written because no package in reach does typo-tolerant lookup.
struct Vocabulary: Sendable {
    /// The words' bytes, back to back.
    private(set) var bytes: [UInt8] = []
    /// Where each word starts in `bytes`; one more entry than words.
    private(set) var starts: [UInt32] = [0]
    private var numbers: [String: UInt32] = [:]
    /// Word numbers in byte order of their words, for the words added before the last `sort()`.
    private var sorted: [UInt32] = []
    /// The length of the longest word, in bytes.
    private var longest = 0

    var count: Int { starts.count - 1 }

    /// The number of `word`, added when new.
    mutating func number(adding word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let key = String(decoding: word, as: UTF8.self)
        if let number = numbers[key] { return number }
        let number = UInt32(count)
        numbers[key] = number
        bytes.append(contentsOf: word)
        starts.append(UInt32(bytes.count))
        longest = max(longest, word.count)
        return number
    }

    /// The number of `word` (folded), if the catalog has it.
    func number(of word: String) -> UInt32? { numbers[word] }

    /// The bytes of word `number`.
    func word(_ number: UInt32) -> ArraySlice<UInt8> { bytes[Int(starts[Int(number)])..<Int(starts[Int(number) + 1])] }

    func string(_ number: UInt32) -> String { String(decoding: word(number), as: UTF8.self) }

    /// Places the words added since the last call in byte order (a merge, linear in the vocabulary).
    mutating func sort() {
        guard sorted.count < count else { return }
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
    }

    private func less(_ a: UInt32, _ b: UInt32) -> Bool { word(a).lexicographicallyPrecedes(word(b)) }

    /// Calls `report` with each word within `typos` edits (Levenshtein, counted in bytes of folded
    /// text) of `query`, or, when `prefix` is true, each word that begins within `typos` edits of
    /// `query`, with its distance.
    func forEachMatch(of query: [UInt8], typos: Int, prefix: Bool, _ report: (UInt32, Int) -> Void) {
        if typos == 0, !prefix {
            if let number = numbers[String(decoding: query, as: UTF8.self)] { report(number, 0) }
            return
        }
        withWords { words in
            if typos == 0 {
                var range = 0..<words.sorted.count
                for depth in 0..<query.count where !range.isEmpty { range = words.childRange(range, depth: depth, byte: query[depth]) }
                for index in range { report(words.sorted[index], 0) }
                return
            }
            // One row of edit distances per depth, all in one buffer.
            let width = query.count + 1
            var rows = [Int](repeating: 0, count: width * (longest + 2))
            for column in 0..<width { rows[column] = column }
            rows.withUnsafeMutableBufferPointer { rows in
                query.withUnsafeBufferPointer { query in
                    withoutActuallyEscaping(report) { report in
                        let walk = Walk(words: words, query: query, typos: typos, prefix: prefix, rows: rows, report: report)
                        walk.visit(range: 0..<words.sorted.count, depth: 0, best: Int.max)
                    }
                }
            }
        }
    }

    /// Runs `body` with the words in byte order, read without copies or reference counting.
    private func withWords<R>(_ body: (SortedWords) -> R) -> R {
        sorted.withUnsafeBufferPointer { sorted in
            starts.withUnsafeBufferPointer { starts in
                bytes.withUnsafeBufferPointer { bytes in body(SortedWords(sorted: sorted, starts: starts, bytes: bytes)) }
            }
        }
    }

    /// The byte-ordered words as an implicit trie: the words sharing a prefix are one range.
    private struct SortedWords {
        let sorted: UnsafeBufferPointer<UInt32>
        let starts: UnsafeBufferPointer<UInt32>
        let bytes: UnsafeBufferPointer<UInt8>

        @inline(__always)
        func length(_ number: UInt32) -> Int { Int(starts[Int(number) + 1] - starts[Int(number)]) }

        @inline(__always)
        func byte(_ number: UInt32, _ offset: Int) -> UInt8 { bytes[Int(starts[Int(number)]) + offset] }

        /// Within `range` (words sharing `depth` bytes), the words whose byte at `depth` is
        /// `target`. A word of exactly `depth` bytes sorts first and belongs to no child.
        func childRange(_ range: Range<Int>, depth: Int, byte target: UInt8) -> Range<Int> {
            var low = range.lowerBound
            let high = range.upperBound
            if low < high, length(sorted[low]) == depth { low += 1 }
            // The rest are ordered by their byte at `depth`: a short scan finds the start of a
            // small group, a binary search that of a large one; likewise for its end.
            var first = low
            while first < high, first < low + 8, byte(sorted[first], depth) < target { first += 1 }
            if first == low + 8 { first = bound(first..<high, depth: depth) { $0 < target } }
            guard first < high, byte(sorted[first], depth) == target else { return first..<first }
            var end = first + 1
            while end < high, end < first + 8, byte(sorted[end], depth) == target { end += 1 }
            if end == first + 8 { end = bound(end..<high, depth: depth) { $0 <= target } }
            return first..<end
        }

        /// The first index of `range` whose byte at `depth` fails `isBefore`.
        private func bound(_ range: Range<Int>, depth: Int, _ isBefore: (UInt8) -> Bool) -> Int {
            var low = range.lowerBound, high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if isBefore(byte(sorted[middle], depth)) { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Fills `next`, the row of edit distances for a word's first `depth` bytes (column `j`: to the
    /// query's first `j` bytes), from `row`, the row for its first `depth - 1`, whose last byte is
    /// `byte`; returns the row's smallest value (no later row has a smaller one).
    @inline(__always)
    static func nextRow(after row: UnsafePointer<Int>, into next: UnsafeMutablePointer<Int>, query: UnsafeBufferPointer<UInt8>,
                        byte: UInt8, depth: Int) -> Int {
        next[0] = depth
        var minimum = depth
        for column in 1..<(query.count + 1) {
            let substitution = row[column - 1] + (query[column - 1] == byte ? 0 : 1)
            let value = Swift.min(substitution, row[column] + 1, next[column - 1] + 1)
            next[column] = value
            if value < minimum { minimum = value }
        }
        return minimum
    }

    /// The edit distance ``forEachMatch(of:typos:prefix:_:)`` reports for one word, computed for
    /// that word alone (to filter the matches of a shorter query).
    struct Distance {
        let query: [UInt8]
        let typos: Int
        let prefix: Bool
        private var previous: [Int]
        private var current: [Int]

        init(query: [UInt8], typos: Int, prefix: Bool) {
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
            for byte in word {
                depth += 1
                let minimum = query.withUnsafeBufferPointer { query in
                    previous.withUnsafeBufferPointer { previous in
                        current.withUnsafeMutableBufferPointer { current in
                            Vocabulary.nextRow(after: previous.baseAddress!, into: current.baseAddress!, query: query, byte: byte, depth: depth)
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

    /// A Levenshtein walk down the implicit trie; see ``forEachMatch(of:typos:prefix:_:)``.
    private struct Walk {
        let words: SortedWords
        let query: UnsafeBufferPointer<UInt8>
        let typos: Int
        let prefix: Bool
        let rows: UnsafeMutableBufferPointer<Int>
        let report: (UInt32, Int) -> Void

        func visit(range: Range<Int>, depth: Int, best: Int) {
            let width = query.count + 1
            let row = rows.baseAddress! + depth * width
            let last = row[query.count]
            var minimum = row[0]
            for column in 1..<width where row[column] < minimum { minimum = row[column] }
            let sorted = words.sorted
            var start = range.lowerBound
            if prefix {
                let effective = min(best, last)
                if effective <= typos, effective == 0 || minimum >= effective {
                    for index in range { report(sorted[index], effective) }
                    return
                }
                if minimum > typos {
                    if best <= typos { for index in range { report(sorted[index], best) } }
                    return
                }
                if start < range.upperBound, words.length(sorted[start]) == depth {
                    if effective <= typos { report(sorted[start], effective) }
                    start += 1
                }
            } else {
                if start < range.upperBound, words.length(sorted[start]) == depth {
                    if last <= typos { report(sorted[start], last) }
                    start += 1
                }
                if minimum > typos { return }
            }
            let next = row + width
            while start < range.upperBound {
                let byte = words.byte(sorted[start], depth)
                let child = words.childRange(start..<range.upperBound, depth: depth, byte: byte)
                _ = Vocabulary.nextRow(after: row, into: next, query: query, byte: byte, depth: depth + 1)
                visit(range: child, depth: depth + 1, best: prefix ? Swift.min(best, last) : best)
                start = child.upperBound
            }
        }
    }
}
