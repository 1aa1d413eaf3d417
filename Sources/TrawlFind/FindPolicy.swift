/// Whether find and replace are allowed for an editor: the model of SwiftUI's `findDisabled(_:)`
/// and `replaceDisabled(_:)`, resolved by a `ScopeTree` (or set directly on a navigator).
public struct FindPolicy: Hashable, Sendable {
    /// Find (and so replace) is disabled.
    public var isFindDisabled: Bool
    /// Replace is disabled (always true when find is, whatever was set).
    public var isReplaceDisabled: Bool {
        get { replaceDisabledSetting || isFindDisabled }
        set { replaceDisabledSetting = newValue }
    }

    private var replaceDisabledSetting: Bool

    /// A policy; disabling find also disables replace.
    public init(findDisabled: Bool = false, replaceDisabled: Bool = false) {
        isFindDisabled = findDisabled
        replaceDisabledSetting = replaceDisabled
    }

    /// Find and replace allowed.
    public static let enabled = FindPolicy()
}

/// Why a find action could not run.
public enum FindActionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Find is disabled for this editor (``FindPolicy/isFindDisabled``).
    case findDisabled
    /// Replace is disabled for this editor (``FindPolicy/isReplaceDisabled``).
    case replaceDisabled
    /// The query has a problem (see ``FindNavigator/diagnostic``).
    case noUsableQuery(FindDiagnostic)

    /// A message for the user.
    public var description: String {
        switch self {
        case .findDisabled: "find is disabled for this editor"
        case .replaceDisabled: "replace is disabled for this editor"
        case .noUsableQuery(let diagnostic): diagnostic.description
        }
    }
}

/// Why a query gives no matches although the text might hold some.
public enum FindDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// The query is empty.
    case emptyQuery
    /// The regular expression does not compile: PCRE2's message and the offset in the query.
    case invalidPattern(message: String, offset: Int)
    /// The replacement template does not parse.
    case invalidReplacement(message: String, offset: Int)
    /// The pattern exceeded a regex resource limit near this offset (catastrophic backtracking).
    case tooExpensive(message: String, offset: Int)

    /// A message for the user.
    public var description: String {
        switch self {
        case .emptyQuery: "the query is empty"
        case .invalidPattern(let message, let offset): "invalid pattern at offset \(offset): \(message)"
        case .invalidReplacement(let message, let offset): "invalid replacement at offset \(offset): \(message)"
        case .tooExpensive(let message, _): message
        }
    }
}
