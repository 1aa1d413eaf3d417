import Testing
import TrawlCatalog
import TrawlTestSupport
import TrawlSearchable

/// The code samples of TrawlCatalog's article, compiled and run here as they are written there.
@MainActor @Suite struct CatalogDocumentationSampleTests {
    static let file = "Tests/TrawlCatalogTests/DocumentationSampleTests.swift"

    @Test func everySampleIsCompiledHere() throws {
        let samples = try documentationSamples("Sources/TrawlSearchable/TrawlSearchable.docc/SearchACatalogAsTheUserTypes.md")
        #expect(!samples.isEmpty)
        for sample in samples { #expect(try source(Self.file, contains: sample), "\(sample.first ?? "")") }
    }

    @Test func searchACatalogAsTheUserTypes() async {
        let catalog = Catalog(items: [
            CatalogItem(id: "ripgrep", fields: ["title": "ripgrep", "body": "recursive line search"], attributes: ["section": ["utils"]]),
            CatalogItem(id: "python3", fields: ["title": "python3", "body": "interactive language"], attributes: ["section": ["python"]]),
        ])
        let session = CatalogSearchSession(catalog: catalog)
        session.field.isPresented = true
        session.field.text = "serch"               // a typo is tolerated
        session.searchNow()
        await session.waitForResults()
        let first = session.results?.hits.first?.id // "ripgrep"
        #expect(first == "ripgrep")

        var scoped = catalog
        scoped.scopeAttribute = "section"
        let scopedSession = CatalogSearchSession(catalog: scoped)
        scopedSession.field.scopes = ["All", "utils", "python"]
        scopedSession.field.scope = "python"
        scopedSession.field.text = "language"
        scopedSession.searchNow()
        await scopedSession.waitForResults()
        let inScope = scopedSession.results?.hits.map(\.id)   // ["python3"]
        #expect(inScope == ["python3"])
    }
}
