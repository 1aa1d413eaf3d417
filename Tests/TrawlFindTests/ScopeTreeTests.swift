import Testing
import TrawlFind
import TrawlSearchable

/// The nearest-scope rules of findDisabled / replaceDisabled, presentation and focus.
@MainActor @Suite struct ScopeTreeTests {
    func editor(_ tree: ScopeTree, in parent: ScopeTree.Node) -> (ScopeTree.Node, FindNavigator) {
        let navigator = FindNavigator(document: TextDocument("some text"))
        return (tree.addEditor(navigator, to: parent), navigator)
    }

    @Test func theNearestSettingWinsInBothDirections() {
        let tree = ScopeTree()
        let outer = tree.addContainer(to: tree.root)
        let inner = tree.addContainer(to: outer)
        let (node, navigator) = editor(tree, in: inner)
        #expect(navigator.policy == .enabled)
        tree.setFindDisabled(true, on: outer)
        #expect(navigator.policy.isFindDisabled && navigator.policy.isReplaceDisabled)
        // A nearer false re-enables what a farther true disabled.
        tree.setFindDisabled(false, on: inner)
        #expect(!navigator.policy.isFindDisabled)
        // The editor's own node is nearest of all.
        tree.setFindDisabled(true, on: node)
        #expect(navigator.policy.isFindDisabled)
        tree.setFindDisabled(nil, on: node)
        #expect(!navigator.policy.isFindDisabled)
        // Replace separately; nearer false beats farther true, and find disabled implies it.
        tree.setReplaceDisabled(true, on: tree.root)
        #expect(navigator.policy == FindPolicy(replaceDisabled: true))
        tree.setReplaceDisabled(false, on: inner)
        #expect(navigator.policy == .enabled)
        tree.setFindDisabled(true, on: node)
        #expect(navigator.policy.isReplaceDisabled)
    }

    @Test func presentingIsRefusedWhenFindIsDisabled() throws {
        let tree = ScopeTree()
        let (node, navigator) = editor(tree, in: tree.root)
        tree.setFindDisabled(true, on: tree.root)
        tree.findNavigator(on: tree.root).isPresented = true
        #expect(!tree.findNavigator(on: tree.root).isPresented)
        #expect(!navigator.isPresented)
        #expect(throws: FindActionError.findDisabled) { try navigator.perform(.next) }
        tree.setFindDisabled(false, on: node)
        tree.findNavigator(on: tree.root).isPresented = true
        #expect(tree.findNavigator(on: tree.root).isPresented)
    }

    @Test func replaceDisabledMakesReplaceActionsFail() throws {
        let tree = ScopeTree()
        let (_, navigator) = editor(tree, in: tree.root)
        tree.setReplaceDisabled(true, on: tree.root)
        navigator.query = "text"
        navigator.present(replace: true)
        #expect(navigator.isPresented && !navigator.isReplaceShown && !navigator.isReplaceAvailable)
        #expect(!navigator.isAvailable(.replaceAll) && navigator.isAvailable(.next))
        #expect(throws: FindActionError.replaceDisabled) { try navigator.replaceAll() }
        #expect(throws: FindActionError.replaceDisabled) { try navigator.perform(.replace) }
        #expect(navigator.document.text.description == "some text")
    }

    @Test func policyChangesWhileShownTakeEffectAtOnce() {
        let tree = ScopeTree()
        let (node, navigator) = editor(tree, in: tree.root)
        navigator.present(replace: true)
        #expect(navigator.isReplaceShown)
        tree.setReplaceDisabled(true, on: node)
        #expect(navigator.isPresented && !navigator.isReplaceShown)
        tree.setFindDisabled(true, on: tree.root)
        #expect(!navigator.isPresented)
        #expect(!tree.findNavigator(on: tree.root).isPresented)
    }

    @Test func theTargetIsTheFocusedEditorElseTheFirstInTreeOrder() throws {
        let tree = ScopeTree()
        let left = tree.addContainer(to: tree.root)
        let right = tree.addContainer(to: tree.root)
        let (first, firstNavigator) = editor(tree, in: left)
        let (second, secondNavigator) = editor(tree, in: right)
        let (third, _) = editor(tree, in: left)
        #expect(tree.editors(under: tree.root) == [first, third, second])
        #expect(tree.target(of: tree.root) == first)
        tree.findNavigator(on: tree.root).isPresented = true
        #expect(firstNavigator.isPresented && !secondNavigator.isPresented)
        // Focus moves the navigator to the newly focused editor.
        firstNavigator.present(replace: true)
        tree.focus(second)
        #expect(tree.target(of: tree.root) == second)
        #expect(!firstNavigator.isPresented && secondNavigator.isPresented && secondNavigator.isReplaceShown)
        #expect(tree.findNavigator(on: tree.root).isPresented)
        // A focused editor outside a node's subtree does not change that node's target.
        #expect(tree.target(of: left) == first)
        // Hiding from the navigator's own controls turns the binding false.
        try secondNavigator.perform(.hide)
        #expect(!tree.findNavigator(on: tree.root).isPresented)
    }

    @Test func aNodesNavigatorStaysInItsSubtreeAndFollowsTheEditorItShowed() {
        let tree = ScopeTree()
        let left = tree.addContainer(to: tree.root)
        let right = tree.addContainer(to: tree.root)
        let (a, aNavigator) = editor(tree, in: left)
        let (b, bNavigator) = editor(tree, in: right)
        tree.findNavigator(on: left).isPresented = true
        // Focus outside `left` leaves its navigator where it is.
        tree.focus(b)
        #expect(aNavigator.isPresented && !bNavigator.isPresented)
        #expect(tree.findNavigator(on: left).isPresented)
        // Focus inside `left` moves it; hiding through the binding hides the shown one.
        let (c, cNavigator) = editor(tree, in: left)
        tree.focus(c)
        #expect(!aNavigator.isPresented && cNavigator.isPresented)
        tree.findNavigator(on: left).isPresented = false
        #expect(!cNavigator.isPresented && !tree.findNavigator(on: left).isPresented)
        _ = a
    }

    @Test func anEditorAddedEarlierInTreeOrderDoesNotOrphanTheBinding() {
        let tree = ScopeTree()
        let left = tree.addContainer(to: tree.root)
        let right = tree.addContainer(to: tree.root)
        let (_, bNavigator) = editor(tree, in: right)
        tree.findNavigator(on: tree.root).isPresented = true
        #expect(bNavigator.isPresented)
        let (a, aNavigator) = editor(tree, in: left)
        #expect(tree.target(of: tree.root) == a)
        #expect(tree.findNavigator(on: tree.root).isPresented)
        tree.findNavigator(on: tree.root).isPresented = false
        #expect(!bNavigator.isPresented && !aNavigator.isPresented && !tree.findNavigator(on: tree.root).isPresented)
    }

    @Test func aNearerReplaceDisabledBeatsAFartherFalseAndFindDisabledAlwaysImpliesIt() {
        let tree = ScopeTree()
        let outer = tree.addContainer(to: tree.root)
        let (_, navigator) = editor(tree, in: outer)
        tree.setReplaceDisabled(false, on: tree.root)
        tree.setReplaceDisabled(true, on: outer)
        #expect(navigator.policy == FindPolicy(replaceDisabled: true))
        var policy = FindPolicy.enabled
        policy.isFindDisabled = true
        #expect(policy.isReplaceDisabled)
        navigator.policy = policy
        #expect(throws: FindActionError.self) { try navigator.replaceAll() }
    }
}
