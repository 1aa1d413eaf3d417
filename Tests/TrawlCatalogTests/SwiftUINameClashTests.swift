import Testing
import TrawlCatalog
import TrawlFind
import TrawlSearchable

/// An app imports SwiftUI and Trawl together: no public top-level Trawl type may share a name with
/// a SwiftUI type, or every unqualified use of SwiftUI's would become ambiguous. Checked through
/// the runtime's type lookup by mangled name, which finds any such type the test binary links.
@Suite struct SwiftUINameClashTests {
    /// SwiftUI types of the families Trawl models (searchable, find navigator), and neighbours.
    static let swiftUINames = [
        "SearchFieldPlacement", "SearchScopeActivation", "SearchSuggestionsPlacement", "SearchToolbarBehavior",
        "SearchPresentationToolbarBehavior", "SearchUnavailableContent", "DismissSearchAction", "FindContext",
        "TextEditor", "TextField", "TextSelection", "Visibility", "SubmitTriggers", "FocusState",
    ]
    static let modules = [
        "TrawlText", "TrawlNGram", "TrawlMatch", "TrawlFiles", "TrawlFind", "TrawlIndex", "TrawlCatalog", "TrawlSearchable",
    ]

    /// The mangled names a top-level type `name` of `module` could have: enum, struct, class,
    /// protocol.
    static func mangledNames(_ module: String, _ name: String) -> [String] {
        let prefix = "\(module.utf8.count)\(module)\(name.utf8.count)\(name)"
        return [prefix + "O", prefix + "V", prefix + "C", prefix + "P_p"]
    }

    @Test func theLookupFindsTrawlsOwnTypes() {
        // Without this, the absence below would prove nothing.
        #expect(_typeByName("15TrawlSearchable9ScopeTreeC") != nil)
        #expect(_typeByName("15TrawlSearchable10SearchableO") != nil)
        #expect(_typeByName("15TrawlSearchable10SearchableO14FieldPlacementO") != nil)
        #expect(_typeByName("15TrawlSearchable16SearchPresentingP_p") != nil)
    }

    @Test(arguments: SwiftUINameClashTests.swiftUINames)
    func noTopLevelTypeIsNamedLikeSwiftUIs(name: String) {
        for module in Self.modules {
            for mangled in Self.mangledNames(module, name) {
                #expect(_typeByName(mangled) == nil, "\(module).\(name) would shadow SwiftUI's \(name)")
            }
        }
    }
}
