import Foundation
import Testing
import TrawlCatalog

/// `trawl catalog build` and `trawl catalog search` on the bundled catalog of Debian packages.
@Suite struct CatalogCommandTests {
    static let items = fixtures.appendingPathComponent("catalog/packages.jsonl")

    func freshFolder() throws -> URL {
        let folder = scratchURL("catalog")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The JSON ids, in rank order, are the library's answer for the same items and query, also
    /// with `--inside-words`.
    @Test(arguments: [("python", false), ("librry", false), ("gam", false), ("network tool", false), ("data base", false),
                      ("zzzzzz", false), ("thon", true), ("thon", false), ("code lib", true)])
    func searchPrintsTheLibrarysRanking(_ query: String, insideWords: Bool) throws {
        let folder = try freshFolder()
        let build = try trawl(["catalog", "build", Self.items.path], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        let run = try trawl(["catalog", "search", "--json", "--limit", "10"] + (insideWords ? ["--inside-words"] : []) + [query], in: folder)
        let lines = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let ids = lines.filter { $0["type"] as? String == "result" }.map { $0["id"] as! String }
        let text = try String(contentsOf: Self.items, encoding: .utf8)
        let catalog = Catalog(items: try text.split(separator: "\n").map { try CatalogItem(jsonLine: String($0)) })
        var searcher = CatalogSearcher()
        let expected = searcher.search(CatalogQuery(text: query, limit: 10, matchesInsideWords: insideWords), in: catalog)
        #expect(ids == expected.hits.map(\.id))
        // "thon" begins no word of the catalog; it is inside "python".
        if query == "thon" { #expect(ids.isEmpty != insideWords, "\(ids)") }
        #expect(lines.last?["matches"] as? Int == expected.matchCount)
        #expect(run.status == (expected.matchCount > 0 ? 0 : 1))
    }

    /// An attribute the catalog lacks, in a token or a facet, is an error naming the ones it has,
    /// not a search that matches nothing; a known attribute with an unknown value matches nothing.
    @Test func unknownAttributesAreErrors() throws {
        let folder = try freshFolder()
        #expect(try trawl(["catalog", "build", Self.items.path], in: folder).status == 0)
        let token = try trawl(["catalog", "search", "--token", "sektion:libs", "lib"], in: folder)
        #expect(token.status == 2 && token.stdout.isEmpty)
        #expect(token.stderr.contains("--token sektion:libs: the catalog has no attribute 'sektion' (it has: ") && token.stderr.contains("section"), "\(token.stderr)")
        let facet = try trawl(["catalog", "search", "--facet", "sektion", "lib"], in: folder)
        #expect(facet.status == 2 && facet.stderr.contains("--facet sektion: the catalog has no attribute 'sektion'"), "\(facet.stderr)")
        #expect(try trawl(["catalog", "search", "--token", "section:nosuchsection", "lib"], in: folder).status == 1)
        #expect(try trawl(["catalog", "search", "--token", "section:libs", "--facet", "section", "lib"], in: folder).status == 0)
    }

    /// A byte-order mark before the first line is not part of its JSON.
    @Test func aByteOrderMarkIsSkipped() throws {
        let folder = try freshFolder()
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"id": "p", "fields": {"title": "zebra"}}"#.utf8) + [0x0A]).write(to: folder.appendingPathComponent("items.jsonl"))
        let build = try trawl(["catalog", "build", "items.jsonl"], in: folder)
        #expect(build.status == 0 && !build.stderr.contains("line 1"), "\(build.stderr)")
        #expect(try trawl(["catalog", "search", "zebra"], in: folder).stdout == "p\tzebra\n1 match\n")
    }

    /// Text output shows an id's and a title's control characters as spaces (an escape sequence
    /// would reach the terminal); JSON keeps them, escaped.
    @Test func controlCharactersInTextOutputAreSpaces() throws {
        let folder = try freshFolder()
        let line = #"{"id": "a\u001b[2Jb\tc\u009b", "fields": {"title": "zebra\u0007\r\ncrossing"}}"#
        try Data((line + "\n").utf8).write(to: folder.appendingPathComponent("items.jsonl"))
        #expect(try trawl(["catalog", "build", "items.jsonl"], in: folder).status == 0)
        let text = try trawl(["catalog", "search", "zebra"], in: folder)
        #expect(text.stdout == "a [2Jb c  \tzebra   crossing\n1 match\n", "\(text.stdout.debugDescription)")
        let json = try trawl(["catalog", "search", "--json", "zebra"], in: folder)
        let first = try JSONSerialization.jsonObject(with: Data(json.stdout.split(separator: "\n")[0].utf8)) as? [String: Any]
        #expect(first?["id"] as? String == "a\u{1B}[2Jb\tc\u{9B}")
    }

    /// A field named twice, without a name or with a weight out of range is an error (exit 2)
    /// that stores nothing; a limit far past the catalog ("all") returns every match.
    @Test func badFieldOptionsAreRefusedAndAHugeLimitMeansAll() throws {
        let folder = try freshFolder()
        for fields in [["title=2", "title=3"], ["=2"], ["title=-1"], ["title=1001"], ["title=x"]] {
            let build = try trawl(["catalog", "build"] + fields.flatMap { ["--field", $0] } + [Self.items.path], in: folder)
            #expect(build.status == 2, "\(fields): \(build.stderr)")
            #expect(build.stderr.contains("--field"), "\(fields): \(build.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".trawl").path), "\(fields)")
        }
        #expect(try trawl(["catalog", "build", "--field", "title=0", "--field", "body", Self.items.path], in: folder).status == 0)
        let all = try trawl(["catalog", "search", "--json", "--limit", "\(Int.max)", "lib"], in: folder)
        #expect(all.status == 0, "\(all.stderr)")
        let lines = all.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let results = lines.filter { $0["type"] as? String == "result" }.count
        #expect(results > 20 && results == lines.last?["matches"] as? Int)
    }

    @Test func badLinesAreReportedWithTheirNumberAndSkipped() throws {
        let folder = try freshFolder()
        let items = folder.appendingPathComponent("items.jsonl")
        try Data("""
        {"id": "a", "fields": {"title": "alpha tool"}}
        {"id": "b", "fields": {"title": 
        
        {"fields": {"title": "no id"}}
        {"id": "c", "fields": {"title": "gamma tool"}, "attributes": {"section": "misc"}}

        """.utf8).write(to: items)
        let build = try trawl(["catalog", "build", "--stats", items.path], in: folder)
        #expect(build.status == 2)
        #expect(build.stderr.contains("items.jsonl:2: not JSON"), "\(build.stderr)")
        #expect(build.stderr.contains("items.jsonl:4: no \"id\""), "\(build.stderr)")
        #expect(build.stdout.hasPrefix("2 items from 2 lines (2 skipped)"), "\(build.stdout)")
        let search = try trawl(["catalog", "search", "tool"], in: folder)
        #expect(search.stdout.hasPrefix("a\talpha tool\nc\tgamma tool\n2 matches"), "\(search.stdout)")
        let scoped = try trawl(["catalog", "search", "--scope", "misc", "tool"], in: folder)
        #expect(scoped.stdout.hasPrefix("c\tgamma tool\n1 match"), "\(scoped.stdout)")
    }

    /// Lines are parsed while earlier ones are indexed: a field first met late still becomes a
    /// searched field, and a bad line far in keeps its number.
    @Test func aFieldFirstMetLateIsSearchedAndLateBadLinesKeepTheirNumber() throws {
        let folder = try freshFolder()
        let items = folder.appendingPathComponent("items.jsonl")
        var lines: [String] = []
        var parsed: [CatalogItem] = []
        for number in 0..<3000 {
            if number == 2100 {
                lines.append("{\"id\": \"broken\"")
                continue
            }
            let notes = number >= 2500 && number % 7 == 0 ? ", \"notes\": \"quokka \(number)\"" : ""
            lines.append("{\"id\": \"p\(number)\", \"fields\": {\"title\": \"package \(number % 97)\", \"body\": \"tool quokka\(number % 5)\"\(notes)}}")
            parsed.append(try CatalogItem(jsonLine: lines.last!))
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: items)
        let build = try trawl(["catalog", "build", "--stats", items.path], in: folder)
        #expect(build.status == 2)
        #expect(build.stderr.contains("items.jsonl:2101: not JSON"), "\(build.stderr)")
        #expect(build.stdout.hasPrefix("2999 items from 2999 lines (1 skipped), fields title=2,body=1,notes=1"), "\(build.stdout)")
        let run = try trawl(["catalog", "search", "--json", "--limit", "100", "quokka"], in: folder)
        let ids = run.stdout.split(separator: "\n").compactMap { line -> String? in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object["type"] as? String == "result" ? object["id"] as? String : nil
        }
        let catalog = Catalog(fields: [CatalogField("title", weight: 2), CatalogField("body", weight: 1), CatalogField("notes")], items: parsed)
        var searcher = CatalogSearcher()
        let expected = searcher.search(CatalogQuery(text: "quokka", limit: 100), in: catalog)
        #expect(!ids.isEmpty && ids == expected.hits.map(\.id))
        #expect(ids.contains("p2506"))
    }

    /// A file of more than a megabyte is mapped rather than read: its lines give the catalog the
    /// same lines give through standard input, and its bad lines keep their numbers.
    @Test func aMappedFileBuildsWhatItsLinesBuildThroughStandardInput() throws {
        let folder = try freshFolder()
        var lines: [String] = []
        for number in 0..<6000 {
            lines.append("{\"id\": \"p\(number)\", \"fields\": {\"title\": \"package \(number % 89)\", \"body\": \"\(String(repeating: "tool quokka\(number % 13) ", count: 12))\"}}")
        }
        lines[5999] = "{\"id\": \"broken\""
        var bytes = Array(lines.joined(separator: "\n").utf8)
        // Line 5001 is not UTF-8: the same line left empty through standard input.
        let badLine = bytes.indices.filter { bytes[$0] == 0x0A }[4999] + 1
        bytes.replaceSubrange(badLine..<(badLine + 12), with: [0xFF] + Array(repeating: UInt8(ascii: " "), count: 11))
        let items = folder.appendingPathComponent("items.jsonl")
        try Data(bytes).write(to: items)
        #expect(bytes.count > 1 << 20)
        let mapped = try trawl(["catalog", "build", "--stats", "--catalog", "mapped", items.path], in: folder)
        #expect(mapped.status == 2)
        #expect(mapped.stderr.contains("items.jsonl:5001: not valid UTF-8"), "\(mapped.stderr)")
        #expect(mapped.stderr.contains("items.jsonl:6000: not JSON"), "\(mapped.stderr)")
        #expect(mapped.stdout.hasPrefix("5998 items from 5998 lines (2 skipped)"), "\(mapped.stdout)")
        lines[5000] = ""
        let piped = try trawl(["catalog", "build", "--stats", "--catalog", "piped", "-"], in: folder, input: lines.joined(separator: "\n"))
        #expect(piped.stderr.contains("-:6000: not JSON"), "\(piped.stderr)")
        let stored = { (name: String) in try Data(contentsOf: folder.appendingPathComponent(name).appendingPathComponent("catalog")) }
        #expect(try stored("mapped") == stored("piped"))
    }

    /// A repeated id keeps its last line, in the place of its first (the catalog's upsert); the
    /// replaced line is not stored.
    @Test func aRepeatedIdKeepsItsLastLine() throws {
        let folder = try freshFolder()
        let items = folder.appendingPathComponent("items.jsonl")
        let lines = (0..<2000).map { "{\"id\": \"p\($0)\", \"fields\": {\"title\": \"walrus \($0)\"}}" }
            + ["{\"id\": \"p7\", \"fields\": {\"title\": \"narwhal\"}, \"attributes\": {\"section\": \"sea\"}}"]
        try Data(lines.joined(separator: "\n").utf8).write(to: items)
        let build = try trawl(["catalog", "build", "--stats", items.path], in: folder)
        #expect(build.status == 0 && build.stdout.hasPrefix("2000 items from 2001 lines"), "\(build.stdout)\(build.stderr)")
        let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(".trawl/catalog/catalog")))
        let stored = try CatalogFormat.decode(bytes)
        #expect(stored.count == 2000 && stored.allItems[7] == CatalogItem(id: "p7", fields: ["title": "narwhal"], attributes: ["section": ["sea"]]))
        #expect(bytes == CatalogFormat.encode(stored), "the replaced line is not stored")
        #expect(try trawl(["catalog", "search", "walrus 7"], in: folder).stdout.hasPrefix("p70\t"))
        #expect(try trawl(["catalog", "search", "narwhal"], in: folder).stdout.hasPrefix("p7\tnarwhal\n1 match"))
    }

    /// A build that cannot write leaves the stored catalog as it was; damage a search runs into
    /// (its parts are checked as they are read) is reported, not results that may lack items.
    @Test func aFailedBuildKeepsTheCatalogAndDamageIsReported() throws {
        let folder = try freshFolder()
        let store = folder.appendingPathComponent("store")
        #expect(try trawl(["catalog", "build", "--catalog", store.path, Self.items.path], in: folder).status == 0)
        let file = store.appendingPathComponent("catalog")
        let before = try Data(contentsOf: file)
        let missing = try trawl(["catalog", "build", "--catalog", store.path, folder.appendingPathComponent("nope.jsonl").path], in: folder)
        #expect(missing.status == 2 && missing.stderr.contains("nope.jsonl"))
        #expect(try Data(contentsOf: file) == before)

        var damaged = before
        damaged[damaged.count / 2] ^= 0xFF
        try damaged.write(to: file)
        let search = try trawl(["catalog", "search", "--catalog", store.path, "python"], in: folder)
        #expect(search.status == 2)
        #expect(search.stderr.contains("cannot read the catalog") && search.stderr.contains("checksum"), "\(search.stderr)")
        try before.prefix(100).write(to: file)
        #expect(try trawl(["catalog", "search", "--catalog", store.path, "python"], in: folder).status == 2)
        let none = try trawl(["catalog", "search", "python"], in: folder)
        #expect(none.status == 2 && none.stderr.contains("trawl catalog build"))
    }

    @Test func theStoredCatalogRoundTrips() throws {
        let text = try String(contentsOf: Self.items, encoding: .utf8)
        var catalog = Catalog(fields: [CatalogField("title", weight: 3), CatalogField("body", weight: -1)],
                              items: try text.split(separator: "\n").map { try CatalogItem(jsonLine: String($0)) })
        catalog.scopeAttribute = "priority"
        catalog.delete(id: "0ad")
        let decoded = try CatalogFormat.decode(CatalogFormat.encode(catalog))
        #expect(decoded.allItems == catalog.allItems)
        #expect(decoded.fields == catalog.fields && decoded.scopeAttribute == "priority")
    }
}
