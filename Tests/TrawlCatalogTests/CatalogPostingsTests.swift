import Testing
import TrawlTestSupport
@testable import TrawlCatalog

@Suite struct CatalogPostingsTests {
    /// The inverted index and the prefix lists equal what posting each word of the forward index
    /// in turn gives (the way they were built before batches were sorted): batches of every size
    /// (both ways of posting), ids repeated inside a batch and across batches, deletes, one-word
    /// fields, and more fields than posting tags tell apart.
    @Test func postingsEqualPostingEachWordInTurn() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 23))
        // 340 words of one to four letters sharing prefixes: enough that a batch of one or two
        // items is posted directly and one of hundreds sorted.
        var words = [""]
        for _ in 1...4 { words = words + words.filter { $0.count == words.last!.count }.flatMap { word in ["a", "b", "c", "é"].map { word + $0 } } }
        words.removeFirst()
        let fieldNames = (0..<9).map { "f\($0)" }
        for _ in 0..<(6 * PropertyTestSettings.scale) {
            var catalog = Catalog(fields: fieldNames.map { CatalogField($0) })
            catalog.prefixPostingsMinimum = 1
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                var batch: [CatalogItem] = []
                for _ in 0..<[1, 2, 40, 300].randomElement(using: &random)! {
                    var item = CatalogItem(id: "i\(Int.random(in: 0..<200, using: &random))")
                    for name in fieldNames where Bool.random(using: &random) {
                        item.fields[name] = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
                    }
                    batch.append(item)
                }
                catalog.upsert(contentsOf: batch)
                if Bool.random(using: &random) { catalog.delete(id: "i\(Int.random(in: 0..<200, using: &random))") }
                expectPostingsEqualTheForwardIndex(catalog)
            }
        }
    }

    /// The statistics count what the items hold, recounted from their texts: distinct words, words
    /// in order, an item once per distinct word, and each distinct word's distinct three-byte
    /// windows in the vocabulary's trigram index; a prefix list's postings when the prefixes
    /// have lists. Items come in batches of distinct ids; replacing items afterwards retires them,
    /// and the index keeps their words until it compacts.
    @Test func statisticsCountWhatTheItemsHold() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 25))
        for round in 0..<(4 * PropertyTestSettings.scale) {
            var catalog = Catalog()
            catalog.prefixPostingsMinimum = round % 2 == 0 ? 1 : nil
            var next = 0
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let batch = (0..<Int.random(in: 1...400, using: &random)).map { _ in
                    defer { next += 1 }
                    return CatalogDifferentialTests.randomItem(&random, id: next)
                }
                catalog.upsert(contentsOf: batch)
            }
            let items = catalog.allItems
            let fieldWords = items.map { item in catalog.fields.map { (item.fields[$0.name].map(WordFolding.words) ?? []).map { Array($0.utf8) } } }
            let distinct = Set(fieldWords.joined().joined())
            let statistics = catalog.statistics
            #expect(statistics.items == items.count)
            #expect(statistics.words == distinct.count)
            #expect(statistics.wordOccurrences == fieldWords.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } })
            #expect(statistics.postings == fieldWords.reduce(0) { $0 + Set($1.joined()).count })
            #expect(statistics.trigramPostings == distinct.reduce(0) { total, word in
                total + Set(word.count < 3 ? [] : (0...(word.count - 3)).map { Array(word[$0..<($0 + 3)]) }).count
            })
            #expect((statistics.prefixPostings > 0) == (round % 2 == 0))
            #expect(statistics.trigramIndexBytes > 0 && statistics.vocabularyBytes >= distinct.reduce(0) { $0 + $1.count })
            #expect(statistics.indexBytes > 4 * statistics.wordOccurrences + 4 * statistics.postings)
            #expect(statistics.retiredItems == 0)
            let replaced = Int.random(in: 1...(next / 4 + 1), using: &random)
            for id in 0..<replaced { catalog.upsert(CatalogDifferentialTests.randomItem(&random, id: id)) }
            #expect(catalog.statistics.items == items.count)
            #expect(catalog.statistics.retiredItems == replaced)
            #expect(catalog.statistics.postings > statistics.postings)
        }
    }

    /// Many items at once are folded on other cores against a snapshot of the vocabulary
    /// (``FoldedItems``) while earlier ones are indexed: the catalog equals one that folds each
    /// item in turn, word numbers included, from an array or a sequence of unknown length.
    /// Chunks of one item up; thousands of distinct words, so that rounds meet words the snapshot
    /// lacks and it is taken again (with chunks of 5 and 37); multi-byte and upper-case words, ids
    /// repeated, fields missing and fields the catalog does not search; a catalog empty or already
    /// holding items, some deleted.
    @Test func foldingAheadEqualsFoldingInTurn() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 24))
        let letters = ["a", "b", "c", "d", "e", "é", "É", "Z", "日", "9"]
        let separators = [" ", " ", ", ", "-", " (", "’", "/"]
        let fields = [CatalogField("title", weight: 2), CatalogField("body", weight: 1), CatalogField("note", weight: 3)]
        for _ in 0..<(2 * PropertyTestSettings.scale) {
            let itemCount = Int.random(in: 200...2_000, using: &random)
            let items = (0..<itemCount).map { _ in
                var item = CatalogItem(id: "i\(Int.random(in: 0..<(itemCount / 2), using: &random))")
                for name in ["title", "body", "note", "unsearched"] where Int.random(in: 0..<4, using: &random) > 0 {
                    item.fields[name] = (0..<Int.random(in: 0...9, using: &random)).map { _ in
                        (0..<Int.random(in: 1...5, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined()
                    }.joined(separator: separators.randomElement(using: &random)!)
                }
                item.attributes["kind"] = [["x", "y"].randomElement(using: &random)!]
                return item
            }
            // Half the time the catalog already holds items, some deleted: the snapshot then
            // starts with their words, beside retired numbers.
            let (earlier, deleted) = Bool.random(using: &random)
                ? (items.prefix(Int.random(in: 1...300, using: &random)), (0..<20).map { _ in "i\(Int.random(in: 0..<(itemCount / 2), using: &random))" })
                : ([], [])
            func catalog() -> Catalog {
                var catalog = Catalog(fields: fields)
                catalog.prefixPostingsMinimum = 8
                catalog.upsert(contentsOf: earlier, foldingAhead: .max)
                for id in deleted { catalog.delete(id: id) }
                return catalog
            }
            var inTurn = catalog()
            inTurn.upsert(contentsOf: items, foldingAhead: .max)
            for (chunk, isStreamed) in [(1, false), (5, false), (5, true), (37, true)] {
                var ahead = catalog()
                if isStreamed {
                    // A sequence that makes its items as it goes and does not know how many.
                    var next = 0
                    ahead.upsert(contentsOf: sequence(state: ()) { _ in
                        defer { next += 1 }
                        return next < items.count ? items[next] : nil
                    }, foldingAhead: chunk)
                } else {
                    ahead.upsert(contentsOf: items, foldingAhead: chunk)
                }
                let vocabulary = { (catalog: Catalog) in (0..<catalog.vocabulary.count).map { catalog.vocabulary.string(UInt32($0)) } }
                let vocabularyAgrees = vocabulary(ahead) == vocabulary(inTurn)
                #expect(vocabularyAgrees, "chunk \(chunk)")
                // Booleans first: a failing comparison of large arrays prints them whole.
                let forwardAgrees = ahead.words == inTurn.words && ahead.bounds == inTurn.bounds
                #expect(forwardAgrees, "chunk \(chunk)")
                let postingsAgree = ahead.postings == inTurn.postings && ahead.postingTags == inTurn.postingTags
                #expect(postingsAgree, "chunk \(chunk)")
                // Lists are numbered in no particular order: compared by prefix.
                let prefixes = Set((0..<inTurn.vocabulary.count).flatMap { word in
                    let bytes = Array(inTurn.vocabulary.word(UInt32(word)))
                    return (1...min(PrefixPostings.longestPrefix, bytes.count)).map { Array(bytes.prefix($0)) }
                })
                let lists = { (catalog: Catalog) in
                    prefixes.map { prefix in catalog.prefixPostings.list(forPrefix: prefix).map { list in
                        let (items, tags) = catalog.prefixPostings.itemsAndTags(of: list)
                        return [items.map(Int.init), tags.map(Int.init)]
                    } }
                }
                let listsAgree = lists(ahead) == lists(inTurn)
                #expect(listsAgree, "chunk \(chunk)")
                let itemsAgree = ahead.allItems == inTurn.allItems && ahead.isLive == inTurn.isLive && ahead.itemValues == inTurn.itemValues
                #expect(itemsAgree, "chunk \(chunk)")
            }
        }
    }

    private func expectPostingsEqualTheForwardIndex(_ catalog: Catalog) {
        var postings = [[UInt32]](repeating: [], count: catalog.vocabulary.count)
        var tags = [[UInt8]](repeating: [], count: catalog.vocabulary.count)
        let stride = catalog.fields.count + 1
        for item in 0..<catalog.slotCount {
            for field in 0..<catalog.fields.count {
                let range = Int(catalog.bounds[item * stride + field])..<Int(catalog.bounds[item * stride + field + 1])
                for position in range {
                    let word = Int(catalog.words[position])
                    var tag = Catalog.fieldTag(field)
                    if range.count == 1 { tag |= Catalog.soleWordTag }
                    if postings[word].last == UInt32(item) {
                        tags[word][tags[word].count - 1] |= tag
                    } else {
                        postings[word].append(UInt32(item))
                        tags[word].append(tag)
                    }
                }
            }
        }
        #expect(catalog.postings == postings)
        #expect(catalog.postingTags == tags)
        // A prefix list: the live items holding a word with that prefix, ascending, their field
        // tags or-ed.
        for length in 1...PrefixPostings.longestPrefix {
            var prefixes: Set<[UInt8]> = []
            for word in 0..<catalog.vocabulary.count where catalog.vocabulary.word(UInt32(word)).count >= length {
                prefixes.insert(Array(catalog.vocabulary.word(UInt32(word)).prefix(length)))
            }
            for prefix in prefixes {
                guard let list = catalog.prefixPostings.list(forPrefix: prefix) else { continue }
                var expected: [UInt32: UInt8] = [:]
                for word in 0..<catalog.vocabulary.count where catalog.vocabulary.word(UInt32(word)).starts(with: prefix) {
                    for (item, tag) in zip(postings[word], tags[word]) where catalog.isLive[Int(item)] {
                        expected[item, default: 0] |= tag & ~Catalog.soleWordTag
                    }
                }
                // Items retired since the lists were chosen may stay in them (searches skip them).
                let (listItems, listTags) = catalog.prefixPostings.itemsAndTags(of: list)
                let live = zip(listItems, listTags).filter { catalog.isLive[Int($0.0)] }
                #expect(live.map(\.0) == expected.keys.sorted(), "\(prefix)")
                #expect(live.map(\.1) == expected.keys.sorted().map { expected[$0]! }, "\(prefix)")
            }
        }
    }
}
