/// What a catalog's in-memory word index holds, and about how many bytes each part takes: for a
/// host's diagnostics and for measuring the index (the stored size is the file's; the items'
/// own texts are not counted here).
///
/// Bytes count the elements of each array plus a 32-byte header per list (a Swift array's), not
/// spare capacity, so they are a lower bound of the memory the index takes.
public struct CatalogStatistics: Sendable, Hashable {
    /// Items held.
    public var items: Int
    /// Replaced or deleted items whose words the index still holds: an update retires an item's
    /// number and compacts them away once they outnumber the live ones. The counts and bytes
    /// below include their words.
    public var retiredItems: Int
    /// Distinct folded words in the vocabulary.
    public var words: Int
    /// Words of every field of every held item, in order (the forward index's length).
    public var wordOccurrences: Int
    /// (word, item) postings, an item once per word it holds.
    public var postings: Int
    /// Postings of the merged prefix lists (a one- to four-letter query word reads these).
    public var prefixPostings: Int
    /// (trigram, word) postings of the shared `NGramIndex` over the vocabulary, which finds the
    /// words containing a piece of text (``CatalogQuery/matchesInsideWords``).
    public var trigramPostings: Int

    /// Bytes of the forward index: each item's words by field, their bounds and lengths.
    public var forwardIndexBytes: Int
    /// Bytes of the postings by word, with their field tags.
    public var postingBytes: Int
    /// Bytes of the merged prefix lists, with their field tags.
    public var prefixPostingBytes: Int
    /// Bytes of the vocabulary: its words' bytes, where each starts, their byte order and the table
    /// numbering them.
    public var vocabularyBytes: Int
    /// Bytes of the vocabulary's trigram index (compressed posting lists and a key per trigram).
    public var trigramIndexBytes: Int

    /// The sum of the parts' bytes.
    public var indexBytes: Int { forwardIndexBytes + postingBytes + prefixPostingBytes + vocabularyBytes + trigramIndexBytes }
}

extension Catalog {
    /// What the catalog's word index holds and about how many bytes it takes in memory; reading
    /// it walks every posting list's header, a step per word and per trigram (and reads a stored
    /// catalog's index whole).
    public var statistics: CatalogStatistics {
        guard storedIndex == nil else {
            var materialized = self
            materialized.materializeIndex()
            return materialized.statistics
        }
        let listHeader = 32
        let postingCount = postings.reduce(0) { $0 + $1.count }
        let prefixCount = (0..<prefixPostings.listCount).reduce(0) { $0 + prefixPostings.count(of: $1) }
        return CatalogStatistics(
            items: count,
            retiredItems: slotCount - count,
            words: vocabulary.count,
            wordOccurrences: words.count,
            postings: postingCount,
            prefixPostings: prefixCount,
            trigramPostings: vocabulary.grams.postingCount,
            forwardIndexBytes: 4 * (words.count + bounds.count + lengths.count),
            postingBytes: 5 * postingCount + 2 * listHeader * postings.count,
            prefixPostingBytes: 5 * prefixCount + 2 * listHeader * prefixPostings.listCount,
            vocabularyBytes: vocabulary.byteCount,
            trigramIndexBytes: vocabulary.grams.byteCount)
    }
}
