extension Catalog {
    /// Completions of the last word of `text` from the catalog's words, most frequent first: the
    /// whole text with its last word completed.
    public func completions(of text: String, limit: Int = 5) -> [String] {
        let words = CatalogSearcher.queryWords(text)
        guard let last = words.last, last.isPrefix, limit > 0 else { return [] }
        var best: [(count: Int, word: UInt32)] = []
        vocabulary.forEachMatch(of: last.bytes, typos: 0, prefix: true) { number, _ in
            guard vocabulary.length(of: number) > last.bytes.count else { return }
            let count = postingCount(of: Int(number))
            if best.count < limit {
                best.append((count, number))
                best.sort { $0.count > $1.count }
            } else if count > best[best.count - 1].count {
                best[best.count - 1] = (count, number)
                best.sort { $0.count > $1.count }
            }
        }
        // Keep what precedes the last word as typed.
        var start = 0
        WordFolding.forEachWord(in: text) { range, _ in start = range.lowerBound }
        let head = String(decoding: Array(text.utf8)[..<start], as: UTF8.self)
        return best.map { head + vocabulary.string($0.word) }
    }

    /// Attribute values whose words begin with the last word of `text` (case and diacritics
    /// folded), as filters, those on more items first.
    public func suggestedFilters(for text: String, attributes: [String]? = nil, limit: Int = 5) -> [CatalogFilter] {
        guard let last = CatalogSearcher.queryWords(text).last, limit > 0 else { return [] }
        let allowed = attributes.map { Set($0.compactMap(attributeNumber(of:))) }
        var found: [(count: Int, value: Int)] = []
        for value in valueStrings.indices where allowed?.contains(valueAttribute[value]) ?? true {
            var matches = false
            WordFolding.forEachWord(in: valueStrings[value]) { _, folded in
                if !matches, folded.starts(with: last.bytes) { matches = true }
            }
            guard matches else { continue }
            let count = valuePostingItems(of: value).reduce(0) { $0 + (isLive[Int($1)] ? 1 : 0) }
            if count > 0 { found.append((count, value)) }
        }
        found.sort { ($0.count, valueStrings[$1.value]) > ($1.count, valueStrings[$0.value]) }
        return found.prefix(limit).map { CatalogFilter(attributeNames[valueAttribute[$0.value]], valueStrings[$0.value]) }
    }
}
