import Testing
import TrawlFind
import TrawlSearchable

/// The `isPresented` binding of `findNavigator(isPresented:)` always says whether a find navigator
/// is shown in the node's subtree, however it was shown or hidden.
@MainActor @Suite struct FindNavigatorBindingTests {
    func editor(_ tree: ScopeTree, in parent: ScopeTree.Node) -> (ScopeTree.Node, FindNavigator) {
        let navigator = FindNavigator(document: TextDocument("some text"))
        return (tree.addEditor(navigator, to: parent), navigator)
    }

    /// The sequence: present on A, hide it, focus B, press B's find shortcut.
    @Test func theBindingSeesTheNavigatorAShortcutShows() throws {
        let tree = ScopeTree()
        let (a, aNavigator) = editor(tree, in: tree.root)
        let (b, bNavigator) = editor(tree, in: tree.root)
        let find = tree.findNavigator(on: tree.root)
        tree.focus(a)
        find.isPresented = true
        #expect(aNavigator.isPresented && find.isPresented)
        try aNavigator.perform(.hide) // the navigator's own close button
        #expect(!find.isPresented)
        tree.focus(b)
        try bNavigator.perform(.showFind) // Command-F in B
        #expect(bNavigator.isPresented && find.isPresented)
        // Hiding through the binding hides what is shown, whoever showed it.
        find.isPresented = false
        #expect(!bNavigator.isPresented && !aNavigator.isPresented && !find.isPresented)
    }

    @Test func aBindingBelowSeesOnlyItsSubtree() throws {
        let tree = ScopeTree()
        let left = tree.addContainer(to: tree.root), right = tree.addContainer(to: tree.root)
        let (_, leftNavigator) = editor(tree, in: left)
        let (_, rightNavigator) = editor(tree, in: right)
        let leftFind = tree.findNavigator(on: left), rootFind = tree.findNavigator(on: tree.root)
        try rightNavigator.perform(.showFind)
        #expect(!leftFind.isPresented && rootFind.isPresented)
        leftFind.isPresented = true
        #expect(leftNavigator.isPresented && rightNavigator.isPresented)
        leftFind.isPresented = false
        #expect(!leftNavigator.isPresented && rightNavigator.isPresented && rootFind.isPresented)
    }

    /// A property with a getter and a setter, so a SwiftUI `Binding` (`$find.isPresented` through
    /// `@Bindable`) wraps it; one object per node.
    @Test func theBindingIsAPropertyOfOneObjectPerNode() {
        let tree = ScopeTree()
        let (_, navigator) = editor(tree, in: tree.root)
        let find = tree.findNavigator(on: tree.root)
        #expect(tree.findNavigator(on: tree.root) === find && find.node == tree.root)
        let isPresented: ReferenceWritableKeyPath<FindNavigatorPresentation, Bool> = \.isPresented
        find[keyPath: isPresented] = true
        #expect(navigator.isPresented)
    }
}
