import Testing
import TrawlFind
import TrawlSearchable

/// `findNavigator(isPresented:)` is for "a view hierarchy that contains at least one text editor":
/// a hierarchy with none, and editors added or removed while the navigator is shown.
@MainActor @Suite struct FindNavigatorEditorsTests {
    @Test func aHierarchyWithoutAnEditorShowsNothingAndSaysSo() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root)
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        #expect(!find.isPresented)
        #expect(tree.findNavigatorDiagnostics == [.noEditor(stack)])
        #expect(tree.findNavigatorDiagnostics.first?.description.contains("no text editor") == true)
        // An editor added later is not shown uninvited; presenting then shows it.
        let navigator = FindNavigator(document: TextDocument("text"))
        tree.addEditor(navigator, to: stack)
        #expect(tree.findNavigatorDiagnostics.isEmpty && !navigator.isPresented && !find.isPresented)
        find.isPresented = true
        #expect(navigator.isPresented && find.isPresented)
    }

    @Test func anEditorAddedWhileShownChangesNothing() {
        let tree = ScopeTree()
        let first = FindNavigator(document: TextDocument("a")), added = FindNavigator(document: TextDocument("b"))
        tree.addEditor(first, to: tree.root)
        let find = tree.findNavigator(on: tree.root)
        find.isPresented = true
        let addedNode = tree.addEditor(added, to: tree.root)
        #expect(find.isPresented && first.isPresented && !added.isPresented)
        // Focusing it moves the navigator there, as for any editor of the subtree.
        tree.focus(addedNode)
        #expect(!first.isPresented && added.isPresented && find.isPresented)
    }

    @Test func removingTheShownEditorHidesItAndTheBindingReadsFalse() {
        let tree = ScopeTree()
        let shown = FindNavigator(document: TextDocument("a")), other = FindNavigator(document: TextDocument("b"))
        let shownNode = tree.addEditor(shown, to: tree.root)
        tree.addEditor(other, to: tree.root)
        let find = tree.findNavigator(on: tree.root)
        find.isPresented = true
        #expect(shown.isPresented)
        tree.remove(shownNode)
        #expect(!shown.isPresented && !other.isPresented && !find.isPresented)
        find.isPresented = true
        #expect(other.isPresented)
    }

    @Test func removingEveryEditorLeavesABindingThatReadsFalse() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root)
        let navigator = FindNavigator(document: TextDocument("a"))
        tree.addEditor(navigator, to: stack)
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        tree.remove(stack)
        #expect(!find.isPresented && !navigator.isPresented)
        find.isPresented = true // the node is gone: nothing to show, nothing breaks
        #expect(!find.isPresented)
    }
}
