extension Catalog {
    /// Adds the items numbered from ``postedSlotCount`` on to the inverted index (`postings`,
    /// `postingTags`), and `toPrefixLists` to the prefix lists, from the forward index: a batch by
    /// one counting sort (``PostingSort``), a few items (an upsert) posting by posting.
    mutating func postPendingItems(toPrefixLists: Bool) {
        let first = postedSlotCount
        guard first < slotCount else { return }
        postedSlotCount = slotCount
        while postings.count < vocabulary.count {
            postings.append([])
            postingTags.append([])
        }
        let stride = fields.count + 1, base = memoryBase
        let pendingWords = Int(bounds[(slotCount - base) * stride - 1] - bounds[(first - base) * stride])
        if pendingWords * 4 < vocabulary.count {
            postDirectly(from: first)
        } else {
            postSorted(from: first)
        }
        guard toPrefixLists, !prefixPostings.isEmpty else { return }
        var prefixPostings = self.prefixPostings
        self.prefixPostings = PrefixPostings()
        forEachPendingWord(from: first) { item, word, tag, _ in
            prefixPostings.add(word: word, of: vocabulary, item: item, field: tag)
        }
        self.prefixPostings = prefixPostings
    }

    /// Calls `body` with each word of the items numbered from `first` on, in order: the item, the
    /// word, its field's tag, and whether it is its field's only word.
    private func forEachPendingWord(from first: Int, _ body: (UInt32, UInt32, UInt8, Bool) -> Void) {
        let fieldCount = fields.count, memoryBase = memoryBase
        words.withUnsafeBufferPointer { words in
            bounds.withUnsafeBufferPointer { bounds in
                for item in first..<slotCount {
                    let base = (item - memoryBase) * (fieldCount + 1)
                    for field in 0..<fieldCount {
                        let start = Int(bounds[base + field]), end = Int(bounds[base + field + 1])
                        let tag = Self.fieldTag(field)
                        for position in start..<end { body(UInt32(item), words[position], tag, end - start == 1) }
                    }
                }
            }
        }
    }

    /// Appends each posting to its word's list in turn.
    private mutating func postDirectly(from first: Int) {
        var postings = self.postings, tags = self.postingTags
        self.postings = []
        self.postingTags = []
        forEachPendingWord(from: first) { item, word, tag, sole in
            let word = Int(word)
            if postings[word].last != item {
                postings[word].append(item)
                tags[word].append(tag)
            } else {
                tags[word][tags[word].count - 1] |= tag
            }
            if sole { tags[word][tags[word].count - 1] |= Self.soleWordTag }
        }
        self.postings = postings
        self.postingTags = tags
    }

    /// Sorts the new postings by word (``PostingSort``), then appends each word's run.
    private mutating func postSorted(from first: Int) {
        let sorted = PostingSort(listCount: vocabulary.count) { post in
            forEachPendingWord(from: first) { item, word, tag, sole in post(item, Int(word), tag | (sole ? Self.soleWordTag : 0)) }
        }
        for word in 0..<vocabulary.count {
            let range = sorted.range(of: word)
            guard !range.isEmpty else { continue }
            postings[word].append(contentsOf: sorted.items[range])
            postingTags[word].append(contentsOf: sorted.tags[range])
        }
    }
}
