/// A search scope a `CatalogSearchSession` cannot honour as the app meant it, named with its
/// value: the session still searches, and says why the results may surprise.
public enum CatalogScopeDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The catalog has no scope attribute (``Catalog/scopeAttribute``): the scope restricts
    /// nothing.
    case noScopeAttribute(scope: String)
    /// No item of the catalog has this value of its scope attribute: the scope finds nothing.
    /// (An "All" scope is `CatalogSearchSession.unrestrictedScope`.)
    case scopeNotInCatalog(scope: String, attribute: String)

    /// A sentence for a log or a test failure.
    public var description: String {
        switch self {
        case .noScopeAttribute(let scope):
            "scope \"\(scope)\": the catalog has no scope attribute, so the scope restricts nothing"
        case .scopeNotInCatalog(let scope, let attribute):
            "scope \"\(scope)\": no item has \(attribute) \"\(scope)\", so the scope finds nothing (set unrestrictedScope for an \"All\" scope)"
        }
    }
}
