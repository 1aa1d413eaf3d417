/// The actions a host binds to menus, buttons and keyboard shortcuts (NSTextFinder.Action is the
/// model). ``FindNavigator/perform(_:)`` runs them, honouring the editor's ``FindPolicy``.
public enum FindAction: Hashable, Sendable, CaseIterable {
    case showFind
    case showReplace
    case next
    case previous
    case replace
    case replaceAll
    case replaceAndFind
    case selectAll
    case useSelectionForFind
    case hide

    /// Whether the action replaces text (unavailable when replace is disabled).
    public var replaces: Bool { self == .replace || self == .replaceAll || self == .replaceAndFind || self == .showReplace }
}

extension FindNavigator {
    /// Whether `action` can run under the current policy (a host greys out the rest).
    public func isAvailable(_ action: FindAction) -> Bool {
        if action == .hide { return true }
        if policy.isFindDisabled { return false }
        return !(action.replaces && policy.isReplaceDisabled)
    }

    /// Runs `action`; showing and hiding update ``isPresented`` as a binding would, and next and
    /// previous show the navigator (as F3 does in VS Code).
    /// - Throws: ``FindActionError`` when the policy forbids it or the query is unusable.
    public func perform(_ action: FindAction) throws(FindActionError) {
        // Hiding is always allowed.
        if action == .hide { return dismiss() }
        guard !policy.isFindDisabled else { throw .findDisabled }
        if action.replaces && policy.isReplaceDisabled { throw .replaceDisabled }
        switch action {
        case .showFind: present()
        case .showReplace: present(replace: true)
        case .next:
            present()
            try findNext()
        case .previous:
            present()
            try findPrevious()
        case .replace: try replace()
        case .replaceAll: try replaceAll()
        case .replaceAndFind: try replaceAndFind()
        case .selectAll: try selectAllMatches()
        case .useSelectionForFind: try useSelectionForFind()
        case .hide: dismiss()
        }
    }
}
