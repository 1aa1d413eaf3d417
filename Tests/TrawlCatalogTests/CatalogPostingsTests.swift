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
                let live = zip(catalog.prefixPostings.items[list], catalog.prefixPostings.fieldTags[list]).filter { catalog.isLive[Int($0.0)] }
                #expect(live.map(\.0) == expected.keys.sorted(), "\(prefix)")
                #expect(live.map(\.1) == expected.keys.sorted().map { expected[$0]! }, "\(prefix)")
            }
        }
    }
}
