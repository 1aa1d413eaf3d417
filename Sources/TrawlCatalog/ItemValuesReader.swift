/// Each item's values of the attributes with no column, as a search reads them: a stored
/// catalog's for the items it was opened with (``StoredIndex/itemValues``), then those in memory
/// (of every attribute) for the items added since; all in memory for a catalog built or read whole.
struct ItemValuesReader {
    /// The stored values and where each item's begin, for the first `storedCount` items.
    let stored: (values: [UInt32], bounds: [UInt32])?
    let storedCount: Int
    /// The values in memory and where each item's begin, from item `storedCount` on.
    let values: [UInt32]
    let bounds: [UInt32]

    /// The values item `item` has (of the attributes with no column, at least).
    func values(of item: Int) -> ArraySlice<UInt32> {
        if item < storedCount, let stored { return stored.values[Int(stored.bounds[item])..<Int(stored.bounds[item + 1])] }
        let index = item - storedCount
        return values[Int(bounds[index])..<Int(bounds[index + 1])]
    }

    /// How many values it holds.
    var count: Int { (stored?.values.count ?? 0) + values.count }
}
