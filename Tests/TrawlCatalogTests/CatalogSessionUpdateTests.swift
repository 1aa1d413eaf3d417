import Testing
@testable import TrawlCatalog
import TrawlSearchable

/// A session follows every input of its search: the catalog as updated (suggestions too), the
/// result limit and the facets.
@MainActor @Suite struct CatalogSessionUpdateTests {
    static func catalog() -> Catalog {
        var catalog = Catalog(items: [
            CatalogItem(id: "1", fields: ["title": "Network Manager"], attributes: ["section": ["net"]]),
            CatalogItem(id: "2", fields: ["title": "network tools"], attributes: ["section": ["utils"]]),
            CatalogItem(id: "3", fields: ["title": "netcat"], attributes: ["section": ["net"]]),
        ])
        catalog.scopeAttribute = "section"
        return catalog
    }

    @Test func suggestionsFollowAnUpsert() async {
        let session = CatalogSearchSession(catalog: Self.catalog())
        session.field.isPresented = true
        session.field.text = "netf"
        #expect(!session.field.suggestions.contains { $0.label == "netfilter" })
        session.catalog.upsert(CatalogItem(id: "4", fields: ["title": "netfilter"], attributes: ["section": ["net"]]))
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["4"])
        #expect(session.field.suggestions.contains { $0.label == "netfilter" })
    }

    @Test func changingTheLimitOrTheFacetsSearchesAgain() async {
        let session = CatalogSearchSession(catalog: Self.catalog())
        session.field.text = "net"
        await session.waitForResults()
        #expect(session.results?.hits.count == 3)
        session.limit = 1
        await session.waitForResults()
        #expect(session.results?.hits.count == 1 && session.results?.matchCount == 3)
        session.facets = []
        await session.waitForResults()
        #expect(session.results?.facets.isEmpty == true)
        session.facets = ["section"]
        await session.waitForResults()
        #expect(session.results?.facets["section"]?.map(\.value).sorted() == ["net", "utils"])
    }
}
