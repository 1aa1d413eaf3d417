/// A stored catalog (``CatalogFormat``) written as its items come, a block at a time, without
/// building a ``Catalog``: `trawl catalog build` writes it on the core that parses while the
/// other indexes, so saving costs the build almost nothing.
///
/// Its bytes equal ``CatalogFormat/encode(_:)`` of a catalog of the same fields and items in
/// the same order, as long as no id repeats (a catalog keeps one item per id).
public struct CatalogWriter: Sendable {
    /// The searched fields the catalog will have.
    public let fields: [CatalogField]
    /// How many items were appended.
    public private(set) var count = 0
    private var numbers: CatalogBlock.Numbers
    private var pending: [CatalogItem] = []
    private var blocks: [[UInt8]] = []

    public init(fields: [CatalogField]) {
        self.fields = fields
        numbers = CatalogBlock.Numbers(fields: fields)
    }

    /// Adds `item` after those appended before; every ``CatalogBlock/itemsPerBlock`` items
    /// are encoded and deflated.
    public mutating func append(_ item: CatalogItem) {
        pending.append(item)
        count += 1
        if pending.count == CatalogBlock.itemsPerBlock { flush() }
    }

    /// The stored catalog of the items appended, with `scopeAttribute`.
    public func bytes(scopeAttribute: String?) -> [UInt8] {
        var finished = self
        finished.flush()
        return CatalogFormat.assemble(fields: fields, scopeAttribute: scopeAttribute, tables: finished.numbers.tables, itemCount: count,
                                      blocks: finished.blocks)
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        blocks.append(CatalogBlock.encode(pending[...], numbers: &numbers))
        pending.removeAll(keepingCapacity: true)
    }
}
