import TrawlCatalog
import TrawlFind
import Observation

/// A tree of containers and editors, like a view hierarchy, carrying the find policies of
/// SwiftUI's `findDisabled(_:)` and `replaceDisabled(_:)` and the presentation of
/// `findNavigator(isPresented:)` (``findNavigator(on:)``).
///
/// Rules (SwiftUI's, made deterministic where SwiftUI is not):
/// - A node may set find and/or replace disabled to `true` or `false`; an editor's policy comes
///   from the nearest node on its path to the root that sets it (its own node first), so a nearer
///   `false` re-enables what a farther `true` disabled. Find disabled implies replace disabled.
/// - A disable blocks programmatic presentation only when it is closer to the editor than the
///   presenting modifier (SwiftUI: "place the `findDisabled` modifier closer to the text editor"):
///   presenting from a node resolves the policy over the nodes from the editor up to that node
///   (``policy(for:presentedFrom:)``). On one node, the disables count as applied before (closer
///   to the editor than) the node's `findNavigator`, as in `.findDisabled().findNavigator(…)`; a
///   disable applied after it belongs on a container above. A navigator shown so keeps that policy
///   until it is hidden; one the editor shows itself (its find shortcut) follows the nearest scope.
/// - Presenting on a node targets one editor of its subtree whose find that node may present: the
///   focused editor if it is one, else the first in tree order (depth first, children in
///   insertion order). SwiftUI calls this choice nondeterministic; Trawl documents it.
/// - Disabling find while shown dismisses the navigator, disabling replace hides its replace part.
/// - When focus moves to another editor of a presenting node's subtree (a navigator shown from a
///   menu or a shortcut at the root), the navigator moves with it (the old editor's is dismissed,
///   the new one's shown, with the replace part if it was); focus leaving the subtree leaves it.
@MainActor @Observable
public final class ScopeTree {
    /// A node of the tree.
    public struct Node: Hashable, Sendable {
        /// Its number, in order of creation (the root is 0): stable for the node's lifetime.
        public let id: Int
    }

    private struct Entry {
        var parent: Node?
        var children: [Node] = []
        var kind: ContainerKind = .plain
        var navigator: FindNavigator?
        var presentation: FindNavigatorPresentation?
        var findDisabled: Bool?
        var replaceDisabled: Bool?
        var searchable: (any SearchPresenting)?
        var searchPlacement: Searchable.FieldPlacement = .automatic
        var hasSearchScopes = false
    }

    private var entries: [Int: Entry] = [:]
    private var nextID = 0
    /// For each editor whose navigator a presenting modifier showed, the node of that modifier.
    private var presentingNodes: [Node: Node] = [:]

    /// The root container.
    public let root = Node(id: 0)
    /// The focused editor, if any.
    public private(set) var focusedEditor: Node?

    /// A tree holding only its root container.
    public init() {
        entries[0] = Entry(parent: nil)
    }

    // MARK: Building

    /// Adds a container of `kind` under `parent`.
    @discardableResult
    public func addContainer(to parent: Node, kind: ContainerKind = .plain) -> Node { add(Entry(parent: parent, kind: kind), to: parent) }

    /// The kind of container `node` is.
    public func kind(of node: Node) -> ContainerKind? { entries[node.id]?.kind }

    /// The parent of `node` (nil for the root).
    public func parent(of node: Node) -> Node? { entries[node.id]?.parent }

    /// Adds an editor (with its navigator) under `parent`.
    @discardableResult
    public func addEditor(_ navigator: FindNavigator, to parent: Node) -> Node {
        let node = add(Entry(parent: parent, navigator: navigator), to: parent)
        navigator.presentationDidEnd = { [weak self] in self?.presentationEnded(for: node) }
        applyPolicies()
        return node
    }

    private func add(_ entry: Entry, to parent: Node) -> Node {
        precondition(entries[parent.id] != nil, "unknown parent node")
        nextID += 1
        let node = Node(id: nextID)
        entries[node.id] = entry
        entries[parent.id]!.children.append(node)
        return node
    }

    /// Removes `node` and its subtree (the root stays).
    public func remove(_ node: Node) {
        guard node != root, let entry = entries[node.id] else { return }
        for child in entry.children { remove(child) }
        if let parent = entry.parent { entries[parent.id]?.children.removeAll { $0 == node } }
        entry.navigator?.dismiss() // its editor is gone
        entry.navigator?.presentationDidEnd = nil
        entries[node.id] = nil
        presentingNodes[node] = nil
        if focusedEditor == node { focusedEditor = nil }
    }

    /// The navigator of an editor node.
    public func navigator(of editor: Node) -> FindNavigator? { entries[editor.id]?.navigator }

    // MARK: Policies

    /// Sets (`true` or `false`) or clears (`nil`) `findDisabled` on `node`.
    public func setFindDisabled(_ disabled: Bool?, on node: Node) {
        entries[node.id]?.findDisabled = disabled
        applyPolicies()
    }

    /// Sets (`true` or `false`) or clears (`nil`) `replaceDisabled` on `node`.
    public func setReplaceDisabled(_ disabled: Bool?, on node: Node) {
        entries[node.id]?.replaceDisabled = disabled
        applyPolicies()
    }

    /// The policy of `node`: each setting from the nearest node on the path to the root that
    /// sets it. It decides what the editor's own controls and shortcuts may do.
    public func policy(for node: Node) -> FindPolicy { policy(for: node, upTo: nil) }

    /// The policy under which `presenter`'s `findNavigator(isPresented:)` presents `editor`: each
    /// setting from the nearest node from the editor up to `presenter` (included) that sets it, so
    /// a disable above the presenting modifier does not block it. When `presenter` is not on the
    /// editor's path, the whole path counts.
    public func policy(for editor: Node, presentedFrom presenter: Node) -> FindPolicy {
        policy(for: editor, upTo: presenter)
    }

    private func policy(for node: Node, upTo last: Node?) -> FindPolicy {
        var find: Bool?, replace: Bool?
        var current: Node? = node
        while let here = current, let entry = entries[here.id], find == nil || replace == nil {
            if find == nil { find = entry.findDisabled }
            if replace == nil { replace = entry.replaceDisabled }
            current = here == last ? nil : entry.parent
        }
        return FindPolicy(findDisabled: find ?? false, replaceDisabled: replace ?? false)
    }

    /// The nodes from `node` up to the root of its hierarchy: a sheet starts a new hierarchy, so
    /// the walk stops at the sheet (included).
    func pathToHierarchyRoot(from node: Node) -> [Node] {
        var path: [Node] = []
        var current: Node? = node
        while let here = current, let entry = entries[here.id] {
            path.append(here)
            if entry.kind == .sheet { break }
            current = entry.parent
        }
        return path
    }

    func searchable(on node: Node) -> (any SearchPresenting)? { entries[node.id]?.searchable }
    func searchPlacement(on node: Node) -> Searchable.FieldPlacement { entries[node.id]?.searchPlacement ?? .automatic }
    func hasSearchScopes(on node: Node) -> Bool { entries[node.id]?.hasSearchScopes ?? false }
    func setSearchable(_ field: (any SearchPresenting)?, placement: Searchable.FieldPlacement, on node: Node) {
        entries[node.id]?.searchable = field
        entries[node.id]?.searchPlacement = placement
    }
    func setHasSearchScopes(_ value: Bool, on node: Node) { entries[node.id]?.hasSearchScopes = value }
    /// Every node, in tree order.
    func allNodes(under node: Node? = nil) -> [Node] {
        let start = node ?? root
        guard let entry = entries[start.id] else { return [] }
        return [start] + entry.children.flatMap { allNodes(under: $0) }
    }

    private func applyPolicies() {
        for (id, entry) in entries where entry.navigator != nil { applyPolicy(to: Node(id: id)) }
    }

    /// Gives `editor`'s navigator its policy: the one its presenter resolves while a presenting
    /// modifier shows it, else the nearest scope's.
    private func applyPolicy(to editor: Node) {
        guard let navigator = navigator(of: editor) else { return }
        let resolved = presentingNodes[editor].map { policy(for: editor, presentedFrom: $0) } ?? policy(for: editor)
        if navigator.policy != resolved { navigator.policy = resolved }
    }

    // MARK: Focus and presentation

    /// Every editor under `node` (itself included), in tree order.
    public func editors(under node: Node) -> [Node] {
        guard let entry = entries[node.id] else { return [] }
        return (entry.navigator != nil ? [node] : []) + entry.children.flatMap(editors(under:))
    }

    /// The editor that presenting on `node` shows the navigator for: the focused editor when it
    /// is in the subtree and `node` may present its find (``policy(for:presentedFrom:)``), else
    /// the first such editor in tree order; nil when there is none.
    public func target(of node: Node) -> Node? {
        let candidates = editors(under: node).filter { !policy(for: $0, presentedFrom: node).isFindDisabled }
        if let focusedEditor, candidates.contains(focusedEditor) { return focusedEditor }
        return candidates.first
    }

    /// Applies `findNavigator(isPresented:)` to `node`: the modifier's binding (the same object
    /// each time for a node).
    public func findNavigator(on node: Node) -> FindNavigatorPresentation {
        if let presentation = entries[node.id]?.presentation { return presentation }
        let presentation = FindNavigatorPresentation(node: node, tree: self)
        entries[node.id]?.presentation = presentation
        return presentation
    }

    /// The `findNavigator(isPresented:)` setups that can never show anything, in tree order.
    public var findNavigatorDiagnostics: [FindNavigatorDiagnostic] {
        allNodes().filter { entries[$0.id]?.presentation != nil && editors(under: $0).isEmpty }.map { .noEditor($0) }
    }

    /// Whether a navigator is shown for an editor under `node` (itself included).
    func isFindNavigatorShown(under node: Node) -> Bool {
        editors(under: node).contains { navigator(of: $0)?.isPresented == true }
    }

    /// Presenting from `node`: shows its target's navigator unless one is shown under it already;
    /// hiding hides every navigator shown under it.
    func setFindNavigatorPresented(_ presented: Bool, from node: Node) {
        if presented {
            guard !isFindNavigatorShown(under: node), let editor = target(of: node) else { return }
            show(editor, from: node, replace: false)
        } else {
            for editor in editors(under: node) { navigator(of: editor)?.dismiss() }
        }
    }

    private func show(_ editor: Node, from presenter: Node, replace: Bool) {
        presentingNodes[editor] = presenter
        applyPolicy(to: editor)
        navigator(of: editor)?.present(replace: replace)
    }

    /// A navigator was hidden: it no longer answers to the modifier that showed it.
    private func presentationEnded(for editor: Node) {
        guard presentingNodes.removeValue(forKey: editor) != nil else { return }
        applyPolicy(to: editor)
    }

    /// Moves focus to `editor` (or clears it). A navigator a node shows moves to the node's new
    /// target when focus moves to another editor of its subtree (with the replace part if it was
    /// shown); focus leaving the subtree, or cleared, leaves it where it is.
    public func focus(_ editor: Node?) {
        focusedEditor = editor.flatMap { entries[$0.id]?.navigator != nil ? $0 : nil }
        guard let focusedEditor else { return }
        for (shown, presenter) in presentingNodes where shown != focusedEditor {
            guard let old = navigator(of: shown), old.isPresented, editors(under: presenter).contains(focusedEditor),
                  navigator(of: focusedEditor)?.isPresented == false,
                  !policy(for: focusedEditor, presentedFrom: presenter).isFindDisabled else { continue }
            let withReplace = old.isReplaceShown
            old.dismiss()
            show(focusedEditor, from: presenter, replace: withReplace)
        }
    }
}
