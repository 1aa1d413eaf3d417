/// Some items' words, split, folded and looked up ahead of indexing, on another core (see
/// ``Catalog/upsert(contentsOf:)``).
///
/// A catalog's words come from a vocabulary that only grows, so a word a snapshot of it numbers
/// keeps that number: the words the snapshot knows (after the first items, nearly all) arrive as
/// numbers, and only the others as bytes for the indexing core to number. Splitting, folding,
/// hashing and the table lookup (its cache misses included) are most of a build.
struct FoldedItems: Sendable {
    /// By word of the items, in order: its number in the vocabulary, or ``unknownFlag`` with the
    /// index of its bytes in `unknownEnds`.
    private(set) var numbers: [UInt32] = []
    /// By item and catalog field, in order: where the field's words end in `numbers`.
    private(set) var fieldEnds: [UInt32] = []
    /// The bytes of the words the snapshot did not know, back to back, where each ends, and their
    /// table keys.
    private var unknownBytes: [UInt8] = []
    private var unknownEnds: [UInt32] = []
    private var unknownKeys: [WordTable.Key] = []

    static let unknownFlag: UInt32 = 1 << 31

    /// The words of `items`' `fields`, numbered by `known` where it can.
    init(_ items: ArraySlice<CatalogItem>, fields: [CatalogField], known: Vocabulary) {
        precondition(known.count < Int(Self.unknownFlag), "a vocabulary of 2^31 words")
        fieldEnds.reserveCapacity(items.count * fields.count)
        for item in items {
            for field in fields {
                if let text = item.fields[field.name] {
                    WordFolding.forEachWord(in: text) { _, folded in
                        let key = WordTable.key(folded)
                        if let number = known.number(of: folded, key: key) {
                            numbers.append(number)
                        } else {
                            numbers.append(Self.unknownFlag | UInt32(unknownKeys.count))
                            unknownBytes.append(contentsOf: folded)
                            unknownEnds.append(UInt32(unknownBytes.count))
                            unknownKeys.append(key)
                        }
                    }
                }
                fieldEnds.append(UInt32(numbers.count))
            }
        }
    }

    /// No items; ``append(known:)`` and ``endField()`` add some whose words are numbered already
    /// (a stored catalog's).
    init() {}

    /// Appends words the vocabulary numbers to the field being added.
    mutating func append(known words: ArraySlice<UInt32>) {
        numbers += words
    }

    /// Ends the field being added (the catalog's fields go in order, item by item).
    mutating func endField() {
        fieldEnds.append(UInt32(numbers.count))
    }

    /// How many words the items have in the catalog's fields.
    var wordCount: Int { numbers.count }

    /// How many words the snapshot did not know.
    var unknownCount: Int { unknownKeys.count }

    /// The number in `vocabulary` of the word at `index` of `numbers`, adding it when new.
    @inline(__always)
    func number(at index: Int, adding vocabulary: inout Vocabulary) -> UInt32 {
        let number = numbers[index]
        guard number & Self.unknownFlag != 0 else { return number }
        let unknown = Int(number & ~Self.unknownFlag)
        let start = unknown == 0 ? 0 : Int(unknownEnds[unknown - 1])
        return unknownBytes.withUnsafeBufferPointer { bytes in
            vocabulary.number(adding: UnsafeBufferPointer(rebasing: bytes[start..<Int(unknownEnds[unknown])]), key: unknownKeys[unknown])
        }
    }
}
