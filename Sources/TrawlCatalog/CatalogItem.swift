/// One searchable thing of a ``Catalog``: a product, a package, a file, a symbol...
public struct CatalogItem: Identifiable, Hashable, Sendable {
    /// Its identity: upserting an item with the same id replaces it.
    public var id: String
    /// Its text fields by name (title, body...); the catalog's ``CatalogField`` list says which
    /// are searched and how much a match in each weighs.
    public var fields: [String: String]
    /// Its attributes by name (kind, section, tags...), each with one or more values: what tokens,
    /// scopes and facets filter and count.
    public var attributes: [String: [String]]

    /// An item with an id, text fields and attributes.
    public init(id: String, fields: [String: String] = [:], attributes: [String: [String]] = [:]) {
        self.id = id
        self.fields = fields
        self.attributes = attributes
    }
}

/// A searched text field of a catalog and its weight in ranking.
public struct CatalogField: Hashable, Sendable {
    /// The field's name in the items (`title`, `body`...).
    public var name: String
    /// How much a match in this field counts; a larger weight ranks higher.
    public var weight: Int

    /// The field `name`, weighing `weight`.
    public init(_ name: String, weight: Int = 1) {
        self.name = name
        self.weight = weight
    }
}

/// An attribute value that items must have: a search token, a scope, or a facet to drill into.
public struct CatalogFilter: Hashable, Sendable, CustomStringConvertible {
    /// The attribute's name (`section`, `priority`...).
    public var attribute: String
    /// The value items must have.
    public var value: String

    /// A filter on `attribute` having `value`.
    public init(_ attribute: String, _ value: String) {
        self.attribute = attribute
        self.value = value
    }

    /// `attribute:value`.
    public var description: String { "\(attribute):\(value)" }
}
