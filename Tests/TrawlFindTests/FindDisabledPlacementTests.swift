import Testing
import TrawlFind
import TrawlSearchable

/// `findDisabled` blocks programmatic presentation only when it is closer to the editor than the
/// `findNavigator(isPresented:)` modifier, as SwiftUI's documentation of `findDisabled(_:)` says.
@MainActor @Suite struct FindDisabledPlacementTests {
    /// `VStack { TextEditor(a).findDisabled(); TextEditor(b) }.findNavigator(isPresented:)`
    func twoEditors() -> (tree: ScopeTree, stack: ScopeTree.Node, a: FindNavigator, b: FindNavigator, bNode: ScopeTree.Node) {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root)
        let a = FindNavigator(document: TextDocument("first")), b = FindNavigator(document: TextDocument("second"))
        let aNode = tree.addEditor(a, to: stack)
        let bNode = tree.addEditor(b, to: stack)
        tree.setFindDisabled(true, on: aNode)
        return (tree, stack, a, b, bNode)
    }

    @Test func presentingShowsTheEditorWhoseFindIsEnabled() {
        let (tree, stack, a, b, bNode) = twoEditors()
        #expect(tree.target(of: stack) == bNode)
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        #expect(!a.isPresented && b.isPresented && find.isPresented)
    }

    /// `VStack { … }.findNavigator(isPresented:).findDisabled()`: the disable is farther from the
    /// editors than the modifier, so it does not block the modifier.
    @Test func aDisableAboveTheModifierDoesNotBlockIt() throws {
        let (tree, stack, a, b, _) = twoEditors()
        tree.setFindDisabled(true, on: tree.root) // above the VStack's modifier
        #expect(b.policy.isFindDisabled) // the editor's own shortcut is disabled
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        #expect(b.isPresented && !a.isPresented)
        // Shown by the modifier, the navigator works under the modifier's policy.
        b.query = "second"
        #expect(try b.findNext() == 0)
        // Hidden again, the editor's own controls follow the nearest scope: refused.
        find.isPresented = false
        #expect(throws: FindActionError.findDisabled) { try b.perform(.showFind) }
        #expect(!b.isPresented && !find.isPresented)
    }

    /// `.findDisabled().findNavigator(isPresented:)` on one node: the disable is the closer one.
    @Test func aDisableOnTheModifiersOwnNodeBlocksIt() {
        let (tree, stack, a, b, _) = twoEditors()
        tree.setFindDisabled(true, on: stack)
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        #expect(!a.isPresented && !b.isPresented && !find.isPresented)
        #expect(tree.target(of: stack) == nil)
    }

    @Test func aDisableBetweenTheEditorAndTheModifierHidesWhatItShowed() {
        let (tree, stack, _, b, bNode) = twoEditors()
        tree.setFindDisabled(true, on: tree.root)
        let find = tree.findNavigator(on: stack)
        find.isPresented = true
        #expect(b.isPresented)
        tree.setFindDisabled(true, on: bNode)
        #expect(!b.isPresented && !find.isPresented)
    }

    @Test func replaceDisabledFollowsTheSameRule() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root)
        let navigator = FindNavigator(document: TextDocument("text"))
        let node = tree.addEditor(navigator, to: stack)
        tree.setReplaceDisabled(true, on: tree.root)
        #expect(tree.policy(for: node).isReplaceDisabled)
        #expect(!tree.policy(for: node, presentedFrom: stack).isReplaceDisabled)
        tree.findNavigator(on: stack).isPresented = true
        navigator.present(replace: true)
        #expect(navigator.isReplaceShown)
        tree.setReplaceDisabled(true, on: stack)
        #expect(navigator.isPresented && !navigator.isReplaceShown)
    }
}
