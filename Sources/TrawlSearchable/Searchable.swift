import TrawlCatalog
import TrawlFind
/// The namespace of Trawl's `searchable` vocabulary whose SwiftUI counterparts have the same
/// short names.
///
/// An app imports SwiftUI and Trawl together, so a public top-level Trawl type named
/// `SearchFieldPlacement` would make every unqualified use of SwiftUI's ambiguous. Nested here,
/// the unqualified names stay SwiftUI's and Trawl's read as `Searchable.FieldPlacement`,
/// `Searchable.ScopeActivation`, and so on; at a use site the type is usually inferred:
///
/// ```swift
/// import SwiftUI
/// import Trawl
///
/// let placement: SearchFieldPlacement = .sidebar      // SwiftUI's
/// tree.setSearchable(field, placement: .sidebar, on: list) // Searchable.FieldPlacement
/// ```
///
/// (Not nested in ``ScopeTree`` or in TrawlCatalog's generic `SearchField`: a type nested in a
/// generic type would need the field's type arguments at every use.)
public enum Searchable {}
