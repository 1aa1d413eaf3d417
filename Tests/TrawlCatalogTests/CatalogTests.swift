import Testing
@testable import TrawlCatalog

@Suite struct CatalogPlaceholder {}
