import Testing
import TrawlCatalog
import TrawlSearchable

/// What `searchPresentationToolbarBehavior` and `searchToolbarBehavior` decide, as outputs a host
/// reads: whether the navigation title is hidden, whether the field is minimized.
@MainActor @Suite struct SearchToolbarBehaviorTests {
    typealias Field = SearchField<Tag, String>

    @Test func presentingHidesTheNavigationTitleUnlessAvoided() {
        let field = Field()
        #expect(!field.hidesNavigationTitle) // not presented
        field.isPresented = true
        #expect(field.hidesNavigationTitle) // automatic on iOS
        field.presentationToolbarBehavior = .avoidHidingContent
        #expect(!field.hidesNavigationTitle)
        field.presentationToolbarBehavior = .automatic
        field.platform = .macOS // the toolbar field leaves the title in place
        #expect(!field.hidesNavigationTitle)
        field.platform = .iOS
        field.dismissSearch()
        #expect(!field.hidesNavigationTitle)
    }

    @Test func minimizeShowsAButtonUntilSearchIsPresented() {
        let field = Field()
        #expect(!field.isMinimized) // automatic
        field.toolbarBehavior = .minimize
        #expect(field.isMinimized)
        field.isFocused = true // tapping the button expands and focuses the field
        #expect(!field.isMinimized && field.isPresented)
        field.isFocused = false
        #expect(!field.isMinimized) // still presented
        field.cancel()
        #expect(field.isMinimized)
    }
}
