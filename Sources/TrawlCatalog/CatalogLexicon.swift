#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TrawlStorage

/// The words and separators of a stored catalog's searched texts (``CatalogFormat`` versions 3 and 4),
/// each as spelled, numbered by how often it occurs (the most frequent first).
///
/// A searched text is stored as the ranks of its separators and words: one or two bytes for most
/// words, which zlib then codes close to their entropy, where deflating the text itself costs
/// about four bytes a word. The words are the catalog's own (``WordFolding``), so loading folds
/// each spelling once and numbers the items' words without splitting or folding their text.
///
/// ```
/// lexicon    varint spelling count, varint separator count, varint raw length,
///            varint stored length, then the raw bytes deflated: the spellings, then the
///            separators, each a string (varint byte count, UTF-8 bytes), in rank order
/// ```
struct CatalogLexicon: Sendable {
    /// The spellings by rank, back to back, and where each ends.
    private(set) var spellingBytes: [UInt8] = []
    private(set) var spellingEnds: [UInt32] = []
    /// The separators by rank, back to back, and where each ends.
    private(set) var separatorBytes: [UInt8] = []
    private(set) var separatorEnds: [UInt32] = []

    var spellingCount: Int { spellingEnds.count }
    var separatorCount: Int { separatorEnds.count }

    func spelling(_ rank: Int) -> ArraySlice<UInt8> { spellingBytes[Self.bounds(of: rank, ends: spellingEnds)] }

    func separator(_ rank: Int) -> ArraySlice<UInt8> { separatorBytes[Self.bounds(of: rank, ends: separatorEnds)] }

    /// Where entry `rank` lies in bytes back to back whose entries end where `ends` says.
    @inline(__always)
    static func bounds(of rank: Int, ends: [UInt32]) -> Range<Int> { (rank == 0 ? 0 : Int(ends[rank - 1]))..<Int(ends[rank]) }

    private mutating func appendSpelling<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        spellingBytes += bytes
        spellingEnds.append(UInt32(spellingBytes.count))
    }

    private mutating func appendSeparator<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        separatorBytes += bytes
        separatorEnds.append(UInt32(separatorBytes.count))
    }

    // MARK: Encoding

    /// The ranks an encoder looks up: a word spelled as its folded form (most words) by its
    /// vocabulary number, any other spelling and every separator by its bytes.
    struct Ranks: Sendable {
        /// By vocabulary number: the rank of the word spelled folded, or `.max`.
        var folded: [UInt32]
        /// By vocabulary number: the rank of the word spelled with its first letter (ASCII) in
        /// uppercase, or `.max`.
        var capitalized: [UInt32]
        var otherSpellings: [[UInt8]: UInt32] = [:]
        var separators: [[UInt8]: UInt32] = [:]
        /// By ``shortIndex(_:)``: the ranks of the separators of up to two bytes (`.max`: none),
        /// nearly all of them.
        var shortSeparators = [UInt32](repeating: .max, count: shortCount)
    }

    /// How a word of a text is spelled against its folded form: a fifth of the words of Debian's
    /// descriptions are not spelled folded, and two thirds of those only start with a capital,
    /// counted and ranked by number instead of by their bytes in a dictionary.
    enum Spelling {
        case folded
        case capitalized
        case other(UnsafeBufferPointer<UInt8>)
    }

    /// How many separators ``shortIndex(_:)`` numbers.
    static let shortCount = 1 + 256 + 65536

    /// A number below ``shortCount`` for each separator of up to two bytes (a table index, where
    /// a dictionary would make and hash an array per separator); nil for longer ones.
    @inline(__always)
    static func shortIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        switch bytes.count {
        case 0: 0
        case 1: 1 + Int(bytes[0])
        case 2: 257 + Int(bytes[0]) << 8 + Int(bytes[1])
        default: nil
        }
    }

    /// The separator ``shortIndex(_:)`` gives `index`.
    static func shortSeparator(_ index: Int) -> [UInt8] {
        index == 0 ? [] : index < 257 ? [UInt8(index - 1)] : [UInt8((index - 257) >> 8), UInt8(truncatingIfNeeded: index - 257)]
    }

    /// How often each spelling and separator occurs in some items' searched texts.
    struct Tally: Sendable {
        fileprivate var folded: [UInt32]
        fileprivate var capitalized: [UInt32]
        fileprivate var otherSpellings: [[UInt8]: UInt32] = [:]
        fileprivate var separators: [[UInt8]: UInt32] = [:]
        fileprivate var shortSeparators = [UInt32](repeating: 0, count: shortCount)

        /// Nothing counted yet, for words numbered below `vocabularyCount`.
        init(vocabularyCount: Int) {
            folded = [UInt32](repeating: 0, count: vocabularyCount)
            capitalized = folded
        }

        mutating func add(_ other: Tally) {
            for index in folded.indices {
                folded[index] += other.folded[index]
                capitalized[index] += other.capitalized[index]
            }
            for index in shortSeparators.indices { shortSeparators[index] += other.shortSeparators[index] }
            otherSpellings.merge(other.otherSpellings, uniquingKeysWith: +)
            separators.merge(other.separators, uniquingKeysWith: +)
        }

        /// Calls `body` with a counter of this tally's: its counts through pointers taken once
        /// (through the tally, each count checked its array's uniqueness), its dictionaries moved
        /// into the counter and back.
        mutating func counting<Result>(_ body: (inout Counter) -> Result) -> Result {
            var dictionaries = (otherSpellings, separators)
            (otherSpellings, separators) = ([:], [:])
            let result = folded.withUnsafeMutableBufferPointer { folded in
                capitalized.withUnsafeMutableBufferPointer { capitalized in
                    shortSeparators.withUnsafeMutableBufferPointer { shortSeparators in
                        var counter = Counter(folded: folded, capitalized: capitalized, shortSeparators: shortSeparators,
                                              otherSpellings: dictionaries.0, separators: dictionaries.1)
                        dictionaries = ([:], [:])
                        let result = body(&counter)
                        dictionaries = (counter.otherSpellings, counter.separators)
                        return result
                    }
                }
            }
            (otherSpellings, separators) = dictionaries
            return result
        }
    }

    /// Counts pieces into a ``Tally`` (see ``Tally/counting(_:)``).
    struct Counter {
        fileprivate let folded: UnsafeMutableBufferPointer<UInt32>
        fileprivate let capitalized: UnsafeMutableBufferPointer<UInt32>
        fileprivate let shortSeparators: UnsafeMutableBufferPointer<UInt32>
        fileprivate var otherSpellings: [[UInt8]: UInt32]
        fileprivate var separators: [[UInt8]: UInt32]

        /// Counts `separator`, whose ``CatalogLexicon/shortIndex(_:)`` is `shortIndex`.
        @inline(__always)
        mutating func add(separator: UnsafeBufferPointer<UInt8>, shortIndex: Int?) {
            if let index = shortIndex {
                shortSeparators[index] += 1
            } else {
                separators[Array(separator), default: 0] += 1
            }
        }

        /// Counts word `number` (in the vocabulary) spelled as `spelling` says.
        @inline(__always)
        mutating func add(word number: UInt32, _ spelling: Spelling) {
            switch spelling {
            case .folded: folded[Int(number)] += 1
            case .capitalized: capitalized[Int(number)] += 1
            case .other(let bytes): otherSpellings[Array(bytes), default: 0] += 1
            }
        }
    }

    /// The lexicon of the texts `tally` counted, whose words are numbered in `vocabulary`, and
    /// the ranks that encode them.
    static func ranking(_ tally: Tally, vocabulary: Vocabulary) -> (CatalogLexicon, Ranks) {
        // Most frequent first; equal counts in byte order, so that equal catalogs store equal bytes.
        enum Entry { case folded(UInt32), capitalized(UInt32), other([UInt8]) }
        var spellings: [(count: UInt32, bytes: ArraySlice<UInt8>, spelling: Entry)] = []
        for (number, count) in tally.folded.enumerated() where count > 0 {
            spellings.append((count, vocabulary.word(UInt32(number)), .folded(UInt32(number))))
        }
        for (number, count) in tally.capitalized.enumerated() where count > 0 {
            var bytes = vocabulary.word(UInt32(number))
            bytes[bytes.startIndex] -= 0x20
            spellings.append((count, bytes, .capitalized(UInt32(number))))
        }
        for (bytes, count) in tally.otherSpellings { spellings.append((count, bytes[...], .other(bytes))) }
        spellings.sort { $0.count != $1.count ? $0.count > $1.count : $0.bytes.lexicographicallyPrecedes($1.bytes) }
        var separators = tally.separators.map { (count: $0.value, bytes: $0.key) }
        for (index, count) in tally.shortSeparators.enumerated() where count > 0 { separators.append((count, shortSeparator(index))) }
        separators.sort { $0.count != $1.count ? $0.count > $1.count : $0.bytes.lexicographicallyPrecedes($1.bytes) }

        var lexicon = CatalogLexicon()
        var ranks = Ranks(folded: [UInt32](repeating: .max, count: vocabulary.count),
                          capitalized: [UInt32](repeating: .max, count: vocabulary.count))
        for (rank, entry) in spellings.enumerated() {
            lexicon.appendSpelling(entry.bytes)
            switch entry.spelling {
            case .folded(let number): ranks.folded[Int(number)] = UInt32(rank)
            case .capitalized(let number): ranks.capitalized[Int(number)] = UInt32(rank)
            case .other(let bytes): ranks.otherSpellings[bytes] = UInt32(rank)
            }
        }
        for (rank, entry) in separators.enumerated() {
            lexicon.appendSeparator(entry.bytes)
            if let index = entry.bytes.withUnsafeBufferPointer(shortIndex) {
                ranks.shortSeparators[index] = UInt32(rank)
            } else {
                ranks.separators[entry.bytes] = UInt32(rank)
            }
        }
        return (lexicon, ranks)
    }

    /// Calls `separator` and `word` in turn with the pieces of `text` whose words, numbered in
    /// `vocabulary`, are `words`: the separator before each word, the word (its number, and how
    /// it is spelled against its folded form), and the separator after the last word. Returns
    /// false, having stopped, when the text has more or fewer words than `words` (an index read
    /// from a damaged file). Inlined, so that the callers' closures write to their own locals.
    @inline(__always) @discardableResult
    static func forEachPiece(of text: UnsafeBufferPointer<UInt8>, words: ArraySlice<UInt32>, vocabulary: Vocabulary,
                             separator: (UnsafeBufferPointer<UInt8>) -> Void,
                             word: (UInt32, Spelling) -> Void) -> Bool {
        var end = 0
        var index = words.startIndex
        let bytes = vocabulary.bytes, starts = vocabulary.starts
        WordFolding.forEachWordRange(in: text) { range in
            // The forward index holds the words this same scan found when the item was added
            // (unless a damaged file said otherwise).
            guard index < words.endIndex else {
                index = words.endIndex + 1
                return false
            }
            separator(UnsafeBufferPointer(rebasing: text[end..<range.lowerBound]))
            let spelling = UnsafeBufferPointer(rebasing: text[range])
            let number = words[index]
            // An ASCII word's case says how it is spelled (most words); another is compared with
            // its vocabulary word, whose bytes cost a cache miss or two.
            let kind = asciiSpelling(spelling) ?? bytes.withUnsafeBufferPointer { folded in
                let start = Int(starts[Int(number)]), length = Int(starts[Int(number) + 1]) - start
                // Spelled folded when its bytes are the vocabulary word's, capitalized when they
                // differ only in an uppercase first letter (ASCII).
                if length == spelling.count {
                    let first = spelling[0]
                    if first == folded[start] {
                        if memcmp(folded.baseAddress! + start, spelling.baseAddress!, length) == 0 { return .folded }
                    } else if (0x41...0x5A).contains(first), first | 0x20 == folded[start],
                              memcmp(folded.baseAddress! + start + 1, spelling.baseAddress! + 1, length - 1) == 0 {
                        return .capitalized
                    }
                }
                return .other(spelling)
            }
            word(number, kind)
            end = range.upperBound
            index += 1
            return true
        }
        guard index == words.endIndex else { return false }
        separator(UnsafeBufferPointer(rebasing: text[end...]))
        return true
    }

    /// How an ASCII word spelled `spelling` is spelled against its folded form (its lowercase
    /// letters); nil when it is not ASCII.
    @inline(__always)
    static func asciiSpelling(_ spelling: UnsafeBufferPointer<UInt8>) -> Spelling? {
        var uppercaseAfterFirst = false
        for byte in spelling.dropFirst() {
            if byte >= 0x80 { return nil }
            if byte &- 0x41 < 26 { uppercaseAfterFirst = true }
        }
        let first = spelling[0]
        if first >= 0x80 { return nil }
        if uppercaseAfterFirst { return .other(spelling) }
        return first &- 0x41 < 26 ? .capitalized : .folded
    }

    /// Appends the stored form of the lexicon to `out`.
    func append(to out: inout [UInt8]) {
        var raw: [UInt8] = []
        raw.reserveCapacity(spellingBytes.count + separatorBytes.count + 2 * (spellingCount + separatorCount))
        for rank in 0..<spellingCount { CatalogBlock.appendBytes(spelling(rank), to: &raw) }
        for rank in 0..<separatorCount { CatalogBlock.appendBytes(separator(rank), to: &raw) }
        StoredFormat.appendVarint(UInt64(spellingCount), to: &out)
        StoredFormat.appendVarint(UInt64(separatorCount), to: &out)
        CatalogBlock.appendDeflated(raw, to: &out)
    }

    // MARK: Decoding

    /// What loading needs beside the texts: by spelling rank, the vocabulary number of its folded
    /// form; by separator rank, where it may stand (``Placement``).
    struct Decoding: Sendable {
        var lexicon: CatalogLexicon
        var numbers: [UInt32]
        var placements: [Placement]
        /// The folded spellings, numbered as `numbers` says.
        var vocabulary: Vocabulary

        /// No spellings or separators: every rank is out of range.
        static let empty = Decoding(lexicon: CatalogLexicon(), numbers: [], placements: [], vocabulary: Vocabulary())
    }

    /// Where a separator may stand so that the words of the text it joins are the stored ones:
    /// between two words only when it begins and ends outside words (a mark would join a word),
    /// first only when it ends outside words, last only when it begins outside them (alone, in a
    /// text without words, anywhere).
    struct Placement: OptionSet, Sendable {
        let rawValue: UInt8
        static let between = Placement(rawValue: 1)
        static let first = Placement(rawValue: 2)
        static let last = Placement(rawValue: 4)
    }

    /// Reads a lexicon, checking that each spelling is one word and each separator holds none;
    /// unless `numbering`, which only a load that indexes the texts needs, the spellings are not
    /// folded and numbered (each number is 0) and the separators are not checked (texts read
    /// for display only).
    static func decode(_ reader: inout StoredFormat.Reader, numbering: Bool = true) throws(StoredFormatError) -> Decoding {
        let spellingCount = try reader.varint(), separatorCount = try reader.varint()
        let raw = try CatalogBlock.inflated(&reader)
        guard spellingCount <= UInt64(raw.count), separatorCount <= UInt64(raw.count) else { throw .corrupt("bad lexicon") }
        var rawReader = StoredFormat.Reader(bytes: raw, end: raw.count)
        var decoding = Decoding(lexicon: CatalogLexicon(), numbers: [], placements: [], vocabulary: Vocabulary())
        decoding.numbers.reserveCapacity(Int(spellingCount))
        guard numbering else {
            // Texts for display: each entry as stored (String(decoding:) repairs bad UTF-8),
            // without an array or a check per entry (most of showing a first result).
            for _ in 0..<spellingCount { decoding.lexicon.appendSpelling(try rawReader.bytes(try rawReader.count())) }
            for _ in 0..<separatorCount { decoding.lexicon.appendSeparator(try rawReader.bytes(try rawReader.count())) }
            decoding.numbers = [UInt32](repeating: 0, count: Int(spellingCount))
            decoding.placements = [Placement](repeating: [.between, .first, .last], count: Int(separatorCount))
            guard rawReader.position == raw.count else { throw .corrupt("trailing bytes in the lexicon") }
            return decoding
        }
        for _ in 0..<spellingCount {
            let bytes = try CatalogBlock.utf8(&rawReader)
            guard let folded = bytes.withUnsafeBufferPointer({ WordFolding.foldedWord($0) }) else { throw .corrupt("a spelling that is not one word") }
            decoding.lexicon.appendSpelling(bytes)
            decoding.numbers.append(folded.withUnsafeBufferPointer { decoding.vocabulary.number(adding: $0) })
        }
        for _ in 0..<separatorCount {
            let bytes = try CatalogBlock.utf8(&rawReader)
            guard let edges = bytes.withUnsafeBufferPointer({ WordFolding.separatorEdges($0) }) else { throw .corrupt("a separator holding a word") }
            decoding.lexicon.appendSeparator(bytes)
            var placement: Placement = []
            if !bytes.isEmpty && !edges.startsInWord && !edges.endsInWord { placement.insert(.between) }
            if !edges.endsInWord { placement.insert(.first) }
            if !edges.startsInWord { placement.insert(.last) }
            decoding.placements.append(placement)
        }
        guard rawReader.position == raw.count else { throw .corrupt("trailing bytes in the lexicon") }
        return decoding
    }
}
