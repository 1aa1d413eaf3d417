import TrawlCatalog
import TrawlFind
/// One entry of a search field's suggestion list: what it shows and what choosing it does.
///
/// The model of a suggestion view with SwiftUI's `searchCompletion(_:)`: `.text("rope")` ↔
/// `Text("rope").searchCompletion("rope")`, `.token(tag)` ↔ `Text(tag.name).searchCompletion(tag)`,
/// no completion ↔ a view without `searchCompletion`.
public struct SearchSuggestion<Token: Identifiable & Hashable>: Hashable, Identifiable {
    /// What choosing the entry does.
    public enum Completion: Hashable {
        /// Replaces the text being edited (tokens stay).
        case text(String)
        /// Adds this token in place of the partial word being typed (the text before it stays).
        case token(Token)
    }

    /// The entry's identity in a list: its label and its completion.
    public var id: String { label + "\u{0}" + String(describing: completion) }
    /// What the entry shows.
    public var label: String
    /// What choosing it does; nil for an entry that is shown but inert.
    public var completion: Completion?

    /// An entry showing `label` whose choice does `completion` (nothing when nil).
    public init(_ label: String, completion: Completion? = nil) {
        self.label = label
        self.completion = completion
    }
}

extension SearchSuggestion: Sendable where Token: Sendable {}
extension SearchSuggestion.Completion: Sendable where Token: Sendable {}
