import Observation

/// A tree of containers and editors, like a view hierarchy, carrying the find policies of
/// SwiftUI's `findDisabled(_:)` and `replaceDisabled(_:)` and the presentation of
/// `findNavigator(isPresented:)`.
///
/// Rules (SwiftUI's, made deterministic where SwiftUI is not):
/// - A node may set find and/or replace disabled to `true` or `false`; an editor's policy comes
///   from the nearest node on its path to the root that sets it (its own node first), so a nearer
///   `false` re-enables what a farther `true` disabled. Find disabled implies replace disabled.
/// - Presenting on a node targets one editor of its subtree: the focused editor if it is in the
///   subtree, else the first editor in tree order (depth first, children in insertion order).
///   SwiftUI calls this choice nondeterministic; Trawl documents it.
/// - When find is disabled for the target, presenting does nothing and the binding reads false;
///   disabling find while shown dismisses the navigator, disabling replace hides its replace part.
/// - When focus moves to another editor of a presenting node's subtree (present on the root for
///   a navigator shown from a menu or a shortcut), the navigator moves with it (the old editor's
///   is dismissed, the new one's shown, with the replace part if it was); focus leaving the
///   subtree leaves it. The binding follows the editor the node showed.
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
        var findDisabled: Bool?
        var replaceDisabled: Bool?
        var searchable: (any SearchPresenting)?
        var searchPlacement: Searchable.FieldPlacement = .automatic
        var hasSearchScopes = false
    }

    private var entries: [Int: Entry] = [:]
    private var nextID = 0
    /// The editor each node's `findNavigator(isPresented:)` showed.
    private var shownEditors: [Node: Node] = [:]

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
        entries[node.id] = nil
        shownEditors[node] = nil
        shownEditors = shownEditors.filter { $0.value != node }
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
    /// sets it.
    public func policy(for node: Node) -> FindPolicy {
        var find: Bool?, replace: Bool?
        var current: Node? = node
        while let here = current, let entry = entries[here.id], find == nil || replace == nil {
            if find == nil { find = entry.findDisabled }
            if replace == nil { replace = entry.replaceDisabled }
            current = entry.parent
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
        for (id, entry) in entries {
            guard let navigator = entry.navigator else { continue }
            let policy = policy(for: Node(id: id))
            if navigator.policy != policy { navigator.policy = policy }
        }
    }

    // MARK: Focus and presentation

    /// Every editor under `node` (itself included), in tree order.
    public func editors(under node: Node) -> [Node] {
        guard let entry = entries[node.id] else { return [] }
        return (entry.navigator != nil ? [node] : []) + entry.children.flatMap(editors(under:))
    }

    /// The editor that presenting on `node` shows the navigator for: the focused editor when it
    /// is in the subtree, else the first editor in tree order.
    public func target(of node: Node) -> Node? {
        let candidates = editors(under: node)
        if let focusedEditor, candidates.contains(focusedEditor) { return focusedEditor }
        return candidates.first
    }

    /// Whether the navigator presented from `node` is shown: the `isPresented` binding's value.
    /// It follows the editor the node showed (also when editors are added later, or the user hides
    /// it with the navigator's own controls), else the node's target (shown by a built-in control).
    public func isFindNavigatorPresented(on node: Node) -> Bool {
        (shownEditors[node] ?? target(of: node)).flatMap(navigator(of:))?.isPresented ?? false
    }

    /// Sets the `isPresented` binding of `node`: shows the navigator of its target, or hides the
    /// one it shows. Has no effect (the binding stays false) when find is disabled for the target.
    public func setFindNavigatorPresented(_ presented: Bool, on node: Node) {
        if presented {
            guard let editor = target(of: node), let navigator = navigator(of: editor), !navigator.policy.isFindDisabled else { return }
            if let shown = shownEditors[node], shown != editor { self.navigator(of: shown)?.dismiss() }
            navigator.present()
            shownEditors[node] = editor
        } else {
            (shownEditors.removeValue(forKey: node) ?? target(of: node)).flatMap(navigator(of:))?.dismiss()
        }
    }

    /// Moves focus to `editor` (or clears it). A navigator a node shows moves to the node's new
    /// target when focus moves to another editor of its subtree (with the replace part if it was
    /// shown); focus leaving the subtree, or cleared, leaves it where it is.
    public func focus(_ editor: Node?) {
        focusedEditor = editor.flatMap { entries[$0.id]?.navigator != nil ? $0 : nil }
        guard let focusedEditor else { return }
        for (node, shown) in shownEditors where shown != focusedEditor {
            guard let old = navigator(of: shown), old.isPresented, editors(under: node).contains(focusedEditor),
                  let new = navigator(of: focusedEditor), !new.policy.isFindDisabled else { continue }
            let withReplace = old.isReplaceShown
            old.dismiss()
            new.present(replace: withReplace)
            shownEditors[node] = focusedEditor
        }
    }
}
