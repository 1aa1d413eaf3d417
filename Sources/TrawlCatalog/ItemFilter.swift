/// Whether an item has every attribute value of a query's filters, checked item by item: from
/// the attribute's column when it has one, else from the item's values. Made once per search, so
/// that the loop over candidates reads no more than the item's column entries.
struct ItemFilter {
    private let checks: [(value: UInt32, column: ValueColumn?)]
    private let values: ItemValuesReader?

    /// The filter of attribute values `filters` (value numbers) in `catalog`.
    init(_ filters: [UInt32], in catalog: Catalog) {
        checks = filters.map { ($0, catalog.column(of: catalog.valueAttribute[Int($0)])) }
        values = checks.contains { $0.column == nil } ? catalog.valuesByItem : nil
    }

    /// Whether nothing is filtered.
    var isEmpty: Bool { checks.isEmpty }

    /// Whether item `item` has every value.
    func admits(_ item: Int) -> Bool {
        checks.allSatisfy { check in
            if let column = check.column { return column[item] == check.value + 1 }
            guard let values else { return false }
            return values.values(of: item).contains(check.value)
        }
    }
}
