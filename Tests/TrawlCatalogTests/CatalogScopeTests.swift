import Testing
import TrawlCatalog
import TrawlSearchable

/// Scopes in a catalog session: "All" restricts nothing; a scope that cannot work as meant is a
/// diagnostic, not a silent surprise.
@MainActor @Suite struct CatalogScopeTests {
    static func catalog(scopeAttribute: String?) -> Catalog {
        var catalog = Catalog(items: [
            CatalogItem(id: "1", fields: ["title": "Network Manager"], attributes: ["section": ["net"]]),
            CatalogItem(id: "2", fields: ["title": "network tools"], attributes: ["section": ["utils"]]),
        ])
        catalog.scopeAttribute = scopeAttribute
        return catalog
    }

    @Test func theAllScopeRestrictsNothing() async {
        let session = CatalogSearchSession(catalog: Self.catalog(scopeAttribute: "section"))
        session.field.scopes = ["All", "net", "utils"]
        session.field.text = "network"
        session.field.scope = "All"
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["1", "2"])
        #expect(session.scopeDiagnostics.isEmpty)
        session.field.scope = "utils"
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["2"])
        // The app names its own "All".
        session.unrestrictedScope = "Everything"
        session.field.scope = "Everything"
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["1", "2"])
        #expect(session.scopeDiagnostics == [.scopeNotInCatalog(scope: "All", attribute: "section")])
    }

    @Test func aScopeNoItemHasFindsNothingAndSaysSo() async {
        let session = CatalogSearchSession(catalog: Self.catalog(scopeAttribute: "section"))
        session.field.text = "network"
        session.field.scope = "docs"
        await session.waitForResults()
        #expect(session.results?.hits.isEmpty == true)
        #expect(session.scopeDiagnostics == [.scopeNotInCatalog(scope: "docs", attribute: "section")])
        #expect(session.scopeDiagnostics.first?.description.contains("finds nothing") == true)
    }

    @Test func withoutAScopeAttributeAScopeIsIgnoredAndSaysSo() async {
        let session = CatalogSearchSession(catalog: Self.catalog(scopeAttribute: nil))
        session.field.scopes = ["All", "net"]
        session.field.text = "network"
        session.field.scope = "net"
        await session.waitForResults()
        #expect(session.results?.hits.map(\.id) == ["1", "2"])
        #expect(session.scopeDiagnostics == [.noScopeAttribute(scope: "net")])
    }

    @Test func aScopeWhoseItemsWereDeletedIsNamed() {
        let session = CatalogSearchSession(catalog: Self.catalog(scopeAttribute: "section"))
        session.field.scopes = ["net", "utils"]
        #expect(session.scopeDiagnostics.isEmpty)
        session.catalog.delete(id: "2")
        #expect(session.scopeDiagnostics == [.scopeNotInCatalog(scope: "utils", attribute: "section")])
    }
}
