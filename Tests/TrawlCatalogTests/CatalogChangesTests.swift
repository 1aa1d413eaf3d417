import Foundation
import SystemPackage
import Testing
import TrawlTestSupport
@testable import TrawlCatalog
import TrawlStorage

/// Changes recorded beside a stored catalog (``CatalogStore/upsert(_:in:)``,
/// ``CatalogStore/delete(ids:in:)``): opening it gives what the same changes give a catalog in
/// memory, and what a catalog built from scratch of the final items gives, whether the changes
/// were pending or written into the catalog whole.
@Suite struct CatalogChangesTests {
    /// What a query set finds: per query, its text, its match count, its hits (id, item, rank)
    /// and its facet counts.
    struct Answer: Equatable {
        var text: String
        var matches: Int
        var hits: [CatalogItem]
        var ranks: [String]
        var facets: [String]
    }

    static func answers(_ catalog: Catalog) -> [Answer] {
        var searcher = CatalogSearcher()
        var random = SeededGenerator(seed: 99)
        var answers: [Answer] = []
        for _ in 0..<60 {
            var query = CatalogDifferentialTests.randomQuery(&random)
            query.limit = 30
            query.facets = ["section", "tags"]
            let results = searcher.search(query, in: catalog)
            answers.append(Answer(text: query.text, matches: results.matchCount, hits: results.hits.map(\.item), ranks: results.hits.map { "\($0.rank)" },
                                  facets: results.facets.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }))
        }
        return answers
    }

    /// The first answer that differs, if any; ranks are compared only `withRanks` (a rebuilt
    /// catalog numbers insertion orders afresh, so their values differ, not their order).
    static func firstDifference(_ a: [Answer], _ b: [Answer], withRanks: Bool = true) -> String? {
        let a = withRanks ? a : a.map { var answer = $0; answer.ranks = []; return answer }
        let b = withRanks ? b : b.map { var answer = $0; answer.ranks = []; return answer }
        guard let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return a.count == b.count ? nil : "counts \(a.count) \(b.count)" }
        let (x, y) = (a[index], b[index])
        return "'\(x.text)': \(x.matches) vs \(y.matches) matches; ids \(x.hits.map(\.id)) vs \(y.hits.map(\.id)); ranks equal \(x.ranks == y.ranks); facets \(x.facets) vs \(y.facets)"
    }

    /// A stored catalog large enough to be mapped, opened from its folder, is read where it lies
    /// and answers as the catalog it stores, from several threads searching it at once (its
    /// parts are checked and its lists kept decoded as the searches first read them).
    @Test func aMappedCatalogSearchedFromSeveralThreadsAnswersAsInMemory() async throws {
        var random = SeededGenerator(seed: 31)
        let memory = Catalog(items: (0..<30_000).map { CatalogDifferentialTests.randomItem(&random, id: $0) })
        let folder = FilePath(try temporaryFolder("catalog-mapped").path)
        try CatalogStore.save(memory, in: folder)
        let size = try FileManager.default.attributesOfItem(atPath: CatalogStore.path(in: folder).string)[.size] as! Int
        #expect(size >= FileBytes.mapThreshold, "large enough to be mapped: \(size) bytes")
        let opened = try CatalogStore.load(from: folder)
        #expect(opened.storedIndex != nil && opened.damage == nil)
        let expected = Self.answers(memory)
        let answers = await withTaskGroup(of: [Answer].self) { group in
            for _ in 0..<3 { group.addTask { Self.answers(opened) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for answer in answers {
            if let difference = Self.firstDifference(answer, expected) { Issue.record("\(difference)") }
        }
        #expect(opened.damage == nil)
    }

    @Test(arguments: [(UInt64(1), Int.max), (2, 0), (3, 4096)])
    func recordedChangesSearchLikeTheSameChangesInMemoryAndLikeARebuild(seed: UInt64, mergePast: Int) throws {
        var random = SeededGenerator(seed: seed)
        let folder = FilePath(try temporaryFolder("catalog-changes").path)
        var memory = Catalog(items: (0..<1500).map { CatalogDifferentialTests.randomItem(&random, id: $0) })
        try CatalogStore.save(memory, in: folder)
        var merges = 0
        for round in 0..<12 {
            var changes: [CatalogChanges.Change] = []
            for _ in 0..<Int.random(in: 1...80, using: &random) {
                let id = Int.random(in: 0..<1800, using: &random)
                if Int.random(in: 0..<4, using: &random) == 0 {
                    changes.append(.delete("item\(id)"))
                    memory.delete(id: "item\(id)")
                } else {
                    let item = CatalogDifferentialTests.randomItem(&random, id: id)
                    changes.append(.upsert(item))
                    memory.upsert(item)
                }
            }
            if try CatalogStore.record(changes, in: folder, mergingPast: mergePast) == 0 { merges += 1 }
            let opened = try CatalogStore.load(from: folder)
            #expect(opened.allItems == memory.allItems, "round \(round)")
            if let difference = Self.firstDifference(Self.answers(opened), Self.answers(memory)) { Issue.record("round \(round): \(difference)") }
        }
        let rebuilt = Catalog(items: memory.allItems)
        if let difference = Self.firstDifference(Self.answers(try CatalogStore.load(from: folder)), Self.answers(rebuilt), withRanks: false) { Issue.record("rebuilt: \(difference)") }
        // Pending changes written whole give the same catalog, and remove the changes file.
        try CatalogStore.merge(in: folder)
        #expect(!FileManager.default.fileExists(atPath: CatalogStore.changesPath(in: folder).string))
        if let difference = Self.firstDifference(Self.answers(try CatalogStore.load(from: folder)), Self.answers(rebuilt), withRanks: false) { Issue.record("merged: \(difference)") }
        // Past an eighth of the catalog's bytes, and past the given size.
        #expect(mergePast == .max ? merges == 0 : merges > 0, "\(merges) merges")
    }

    /// The public calls, and the rule that changes recorded for an older catalog are not applied:
    /// a catalog built again replaces them, and changes left beside a catalog written whole
    /// since (a process killed between the two writes) are ignored.
    @Test func changesApplyOnlyToTheCatalogTheyWereRecordedFor() throws {
        let folder = FilePath(try temporaryFolder("catalog-changes-base").path)
        let first = Catalog(items: [CatalogItem(id: "a", fields: ["title": "alpha tool"]), CatalogItem(id: "b", fields: ["title": "beta"])])
        try CatalogStore.save(first, in: folder)
        #expect(try CatalogStore.upsert([CatalogItem(id: "c", fields: ["title": "gamma tool"])], in: folder) == 1)
        #expect(try CatalogStore.delete(ids: ["a", "nobody"], in: folder) == 3)
        #expect(try CatalogStore.load(from: folder).allItems.map(\.id) == ["b", "c"])
        let changes = try Data(contentsOf: URL(fileURLWithPath: CatalogStore.changesPath(in: folder).string))
        try CatalogStore.save(first, in: folder)
        #expect(try CatalogStore.load(from: folder).allItems.map(\.id) == ["a", "b"])
        try changes.write(to: URL(fileURLWithPath: CatalogStore.changesPath(in: folder).string))
        try CatalogStore.save(Catalog(items: [CatalogItem(id: "z", fields: ["title": "zeta"])]), in: folder)
        try changes.write(to: URL(fileURLWithPath: CatalogStore.changesPath(in: folder).string))
        #expect(try CatalogStore.load(from: folder).allItems.map(\.id) == ["z"])
    }

    /// Without a catalog there is nothing to change; a damaged, linked or FIFO changes file is
    /// an error, not a hang, and the catalog beside it is untouched.
    @Test func badChangesAreErrors() throws {
        let folder = FilePath(try temporaryFolder("catalog-changes-bad").path)
        #expect(throws: (any Error).self) { try CatalogStore.upsert([CatalogItem(id: "x")], in: folder) }
        try CatalogStore.save(Catalog(items: [CatalogItem(id: "a", fields: ["title": "alpha"])]), in: folder)
        try CatalogStore.upsert([CatalogItem(id: "b", fields: ["title": "beta"])], in: folder)
        let path = CatalogStore.changesPath(in: folder).string
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoredFormatError.corrupt("body checksum")) { try CatalogStore.load(from: folder) }
        #expect(throws: StoredFormatError.corrupt("body checksum")) { try CatalogStore.upsert([CatalogItem(id: "c")], in: folder) }
        unlink(path)
        try #require(mkfifo(path, 0o644) == 0)
        #expect(throws: (any Error).self) { try CatalogStore.load(from: folder) }
        unlink(path)
        try #require(symlink("/etc/passwd", path) == 0)
        #expect(throws: (any Error).self) { try CatalogStore.load(from: folder) }
        #expect(throws: (any Error).self) { try CatalogStore.upsert([CatalogItem(id: "c")], in: folder) }
        #expect(try String(contentsOfFile: "/etc/passwd", encoding: .utf8).contains("root"))
        unlink(path)
        #expect(try CatalogStore.load(from: folder).allItems.map(\.id) == ["a"])
    }

    /// Seeded fuzz of a changes file behind matching checksums: an error or a catalog, never a
    /// crash or a hang.
    @Test func fuzzedChangesAreRefusedOrApplied() throws {
        var random = SeededGenerator(seed: 5)
        let items = (0..<40).map { CatalogDifferentialTests.randomItem(&random, id: $0) }
        let good = CatalogChanges(base: 7, changes: items.map { .upsert($0) } + [.delete("item3")]).encoded
        for _ in 0..<400 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: CatalogFormat.headerLength..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes.removeLast(Int.random(in: 1...20, using: &random)) }
            var header = Array(bytes[0..<12])
            StoredFormat.appendUInt(UInt64(bytes.count - CatalogFormat.headerLength), 8, to: &header)
            StoredFormat.appendUInt(StoredFormat.checksum(bytes[CatalogFormat.headerLength...]), 8, to: &header)
            StoredFormat.appendUInt(StoredFormat.checksum(header[...]), 8, to: &header)
            bytes.replaceSubrange(0..<CatalogFormat.headerLength, with: header)
            if let changes = try? CatalogChanges(decoding: bytes) {
                var catalog = Catalog()
                changes.apply(to: &catalog)
                #expect(catalog.count <= 40)
            }
        }
        #expect(try CatalogChanges(decoding: good) == CatalogChanges(base: 7, changes: items.map { .upsert($0) } + [.delete("item3")]))
    }
}
