import Foundation
import SystemPackage
import Testing
import Trawl
import TrawlTestSupport

/// The library snippets of README.md, compiled and run here as they are written there.
@MainActor @Suite struct ReadmeSampleTests {
    static let file = "Tests/TrawlCLITests/ReadmeSampleTests.swift"

    @Test func everySnippetIsCompiledHere() throws {
        let samples = try documentationSamples("README.md")
        #expect(samples.count == 7)
        for sample in samples { #expect(try source(Self.file, contains: sample), "\(sample.first ?? "")") }
    }

    @Test func text() {
        var rope = Rope("let a = 1\r\nlet b = 2\n")
        let edit = rope.replace(4..<5, with: "total")      // a TextEdit: replaced range, inserted count
        let position = rope.position(ofUTF8: 19)           // line 1, column 4
        let utf16 = rope.utf16Offset(ofUTF8: rope.utf8Count) // O(log n), from the summaries
        #expect(edit.replacedRange == 4..<5 && String(rope) == "let total = 1\r\nlet b = 2\n")
        #expect(position.line == 1 && position.column == 4)
        #expect(utf16 == rope.utf8Count)
    }

    @Test func match() throws {
        let matcher = try RegexMatcher("let (\\w+)")
        let text = Rope("let a = 1\nlet b = 2\n")
        let count = try matcher.count(in: text)                              // 2
        let first = try matcher.firstMatch(in: text, capturingGroups: true)  // 0..<5, group 1 at 4..<5
        let template = try matcher.template("var $1")
        #expect(count == 2)
        #expect(first?.range == 0..<5 && first?.groups == [4..<5])
        #expect(try ReplacementPlan(matching: matcher, in: text, template: template).changes.count == 2)
    }

    /// A tree with one match of EventLoop.
    func tree() throws -> FilePath {
        let folder = try temporaryFolder("readme")
        try Data("let loop = EventLoop()\nlet other = 1\n".utf8).write(to: folder.appendingPathComponent("main.swift"))
        return FilePath(folder.path)
    }

    @Test func files() throws {
        let root = try tree()
        let search = TreeSearch(WalkedFiles([root]))                    // ignore files, globs, hidden files
        let matcher = try FindQuery(pattern: "EventLoop").makeMatcher()  // the CLI's matcher factory
        var lines: [String] = []
        _ = search.findMatches(of: matcher) { file in                    // files searched in parallel
            for line in file.lines where !line.isContext { lines.append("\(file.path):\(line.number): \(line.text)") }
        }
        let replacement = FileReplacement(matcher: matcher, template: try matcher.template("RunLoop"))
        _ = search.replace(replacement, writes: false) { result in /* .planned(changes): nothing written */ }
        var planned = 0
        _ = search.replace(replacement, writes: false) { result in
            if case .planned(let changes) = result.outcome { planned += changes.count }
        }
        #expect(lines == ["\(root)/main.swift:1: let loop = EventLoop()"])
        #expect(planned == 1)
    }

    @Test func index() throws {
        let root = try tree()
        let matcher = try FindQuery(pattern: "EventLoop").makeMatcher()
        let report = try TreeIndexer(root: root).update()              // build or refresh root/.trawl/
        let files = IndexedFiles([root], query: matcher.literalQuery)    // the index's listing, or a walk
        _ = TreeSearch(files).findMatches(of: matcher) { file in /* the same results as a walk */ }
        var found = 0
        _ = TreeSearch(files).findMatches(of: matcher) { file in found += file.matchCount }
        #expect(report.written && report.indexed == 1)
        #expect(files.listsFiles && found == 1)
    }

    @Test func find() throws {
        let document = TextDocument("let a = 1\r\nlet b = 2\n")
        let find = FindNavigator(document: document)       // @MainActor, @Observable
        find.options = .regex
        find.query = "let (\\w)"                            // matches: 2, find.positionDescription == "1 of 2"
        try find.findNext()                                 // selects 0..<5, the match "1 of 2" named
        find.replacement = "var $1"
        try find.replaceAll()                               // one undo step; document.undo() restores the bytes
        #expect(String(document.text) == "var a = 1\r\nvar b = 2\n")
        document.undo()
        #expect(String(document.text) == "let a = 1\r\nlet b = 2\n")
    }

    @Test func catalog() {
        let catalog = Catalog(items: [
            CatalogItem(id: "ripgrep", fields: ["title": "ripgrep", "body": "recursive line search"], attributes: ["section": ["utils"]]),
        ])
        var searcher = CatalogSearcher()                    // reuses its work as typing narrows the query
        let results = searcher.search(CatalogQuery(text: "serch", facets: ["section"]), in: catalog)
        let first = results.hits.first?.id                  // "ripgrep": one typo tolerated
        #expect(first == "ripgrep")
    }

    @Test func searchable() {
        let tree = ScopeTree()                              // the view hierarchy, policies by nearest scope
        let stack = tree.addContainer(to: tree.root, kind: .navigationStack)
        let field = SearchField<CatalogFilter, String>()   // the model of `searchable`
        tree.setSearchable(field, on: stack)
        field.isPresented = true                            // tree.isSearching(at: stack) is now true
        #expect(tree.isSearching(at: stack))
    }
}
