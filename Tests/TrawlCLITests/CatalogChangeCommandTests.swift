import Foundation
import SystemPackage
import Testing
import TrawlCatalog

/// `trawl catalog add` and `trawl catalog delete` on a built catalog: what they record is
/// searched at once, bad input is an error that records what it can, and a run killed at any
/// moment leaves the catalog it had or the new one, whole.
@Suite struct CatalogChangeCommandTests {
    func builtFolder() throws -> URL {
        let folder = scratchURL("catalog-changes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let build = try trawl(["catalog", "build", CatalogCommandTests.items.path], in: folder)
        #expect(build.status == 0, "\(build.stderr)")
        return folder
    }

    @Test func addedItemsAreSearchedAndDeletedOnesAreNot() throws {
        let folder = try builtFolder()
        let lines = #"{"id": "zz-new", "fields": {"title": "quokkazebra tool"}, "attributes": {"section": ["games"]}}"# + "\n"
            + #"{"id": "0ad", "fields": {"title": "0ad", "body": "replaced quokkazebra strategy"}}"# + "\n" + "not json\n"
        try Data(lines.utf8).write(to: folder.appendingPathComponent("add.jsonl"))
        let add = try trawl(["catalog", "add", "--stats", "add.jsonl"], in: folder)
        #expect(add.status == 2 && add.stderr.contains("add.jsonl:3:"), "\(add.stderr)")
        #expect(add.stdout.hasPrefix("2 items recorded from 2 lines (1 skipped); 2 changes pending"), "\(add.stdout)")
        let found = try trawl(["catalog", "search", "--json", "quokkazebra"], in: folder)
        #expect(found.status == 0)
        #expect(found.stdout.contains(#""id":"zz-new""#) && found.stdout.contains(#""id":"0ad""#), "\(found.stdout)")
        #expect(try trawl(["catalog", "delete", "zz-new", "no-such-id"], in: folder).status == 0)
        let after = try trawl(["catalog", "search", "quokkazebra"], in: folder)
        #expect(after.stdout.hasPrefix("0ad\t0ad\n1 match"), "\(after.stdout)")
        // The library reads the same catalog.
        let catalog = try CatalogStore.load(from: FilePath(folder.appendingPathComponent(".trawl/catalog").path))
        #expect(catalog["zz-new"] == nil && catalog["0ad"]?.fields["body"] == "replaced quokkazebra strategy")
        // Building again replaces the catalog and the changes recorded for the old one.
        #expect(try trawl(["catalog", "build", CatalogCommandTests.items.path], in: folder).status == 0)
        #expect(try trawl(["catalog", "search", "quokkazebra"], in: folder).status == 1)
    }

    /// A tree whose `.trawl` is a link out of it (planted with a catalog there): `add` and
    /// `delete` refuse to write through it, and nothing appears beside that catalog.
    @Test func changesAreNotWrittenThroughALinkedTrawlFolder() throws {
        let outside = try builtFolder()
        let tree = scratchURL("catalog-changes-linked")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tree.appendingPathComponent(".trawl").path,
                                                   withDestinationPath: outside.appendingPathComponent(".trawl").path)
        try Data(#"{"id": "planted", "fields": {"title": "planted"}}"#.utf8).write(to: tree.appendingPathComponent("add.jsonl"))
        let store = outside.appendingPathComponent(".trawl/catalog")
        let before = try FileManager.default.contentsOfDirectory(atPath: store.path).sorted()
        let add = try trawl(["catalog", "add", "add.jsonl"], in: tree)
        #expect(add.status == 2, "\(add.stderr)")
        #expect(try trawl(["catalog", "delete", "0ad"], in: tree).status == 2)
        #expect(try trawl(["catalog", "build", "add.jsonl"], in: tree).status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.path).sorted() == before)
        #expect(try trawl(["catalog", "search", "planted"], in: outside).status == 1)
    }

    @Test func changesWithoutACatalogAreErrors() throws {
        let folder = scratchURL("catalog-changes-none")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"id": "a", "fields": {"title": "alpha"}}"#.utf8).write(to: folder.appendingPathComponent("add.jsonl"))
        let add = try trawl(["catalog", "add", "add.jsonl"], in: folder)
        #expect(add.status == 2 && add.stderr.contains("trawl catalog build"), "\(add.stderr)")
        #expect(try trawl(["catalog", "delete", "a"], in: folder).status == 2)
        #expect(try trawl(["catalog", "add", "missing.jsonl"], in: folder).status == 2)
    }

    /// `catalog add` killed with SIGKILL at random moments, while it records items or writes the
    /// catalog whole with them (enough items to pass the threshold): every time, the catalog opens
    /// and holds none of the items or all of them, and a later run completes the job and removes what the killed ones left.
    @Test func killedAddsLeaveTheOldCatalogOrTheNewOne() throws {
        let folder = try builtFolder()
        let store = FilePath(folder.appendingPathComponent(".trawl/catalog").path)
        let before = try CatalogStore.load(from: store)
        var lines = ""
        for number in 0..<20_000 {
            lines += #"{"id": "added-\#(number)", "fields": {"title": "added item \#(number)", "body": "word\#(number % 977) and more text \#(number)"}, "attributes": {"section": ["s\#(number % 9)"]}}"# + "\n"
        }
        try Data(lines.utf8).write(to: folder.appendingPathComponent("add.jsonl"))
        var random = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0..<10 {
            let child = try Child.start(trawlBinary.path, ["catalog", "add", "add.jsonl"], in: folder)
            // A random moment of the run (parsing, recording, or writing the catalog whole).
            usleep(UInt32.random(in: 2_000...(round < 5 ? 150_000 : 900_000), using: &random))
            kill(child.pid, SIGKILL)
            let run = child.finish()
            if run.status == 128 + SIGKILL { kills += 1 }
            let catalog = try CatalogStore.load(from: store)
            let added = (0..<20_000).filter { catalog["added-\($0)"] != nil }.count
            #expect(added == 0 || added == 20_000, "round \(round): \(added) of the added items")
            #expect(catalog.count == before.count + added)
            let search = try trawl(["catalog", "search", "added"], in: folder)
            #expect(search.status == (added > 0 ? 0 : 1), "\(search.stderr)")
            // Back to the catalog without them, for the next round.
            if added > 0 { try CatalogStore.save(before, in: store) }
        }
        #expect(kills > 0, "no run was killed mid-way; the test did not test anything")
        let finish = try trawl(["catalog", "add", "--stats", "add.jsonl"], in: folder)
        #expect(finish.status == 0, "\(finish.stderr)")
        #expect(finish.stdout.contains("the catalog was written whole with them"), "the runs killed were writing it whole: \(finish.stdout)")
        #expect(try CatalogStore.load(from: store).count == before.count + 20_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.string).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the temporary files of killed runs are removed by the next: \(leftovers)")
    }
}
