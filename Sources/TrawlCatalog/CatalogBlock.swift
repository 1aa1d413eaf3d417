import TrawlIndex

/// One stored block of a catalog's items (``CatalogFormat``): up to ``itemsPerBlock`` items,
/// laid out by column so that like text sits together, then deflated.
///
/// ```
/// stored      varint item count, varint raw length, varint stored length, the raw bytes deflated
/// raw         local strings: varint count, strings
///             ids: a string per item
///             field names: per item, varint count and ascending name references
///             texts: per referenced name in ascending order, the texts of the items holding it
///             attributes: per item, varint count, then (name reference, varint value count,
///                         value references) each
/// ```
/// A reference is a number times two for an entry of the catalog's tables (its searched fields,
/// attribute names, attribute values), or an index times two plus one for an entry of the block's
/// local strings: names and values the tables do not hold (an attribute whose every list is
/// empty, a field that is not searched). Attributes go in name order, so equal items give equal
/// bytes.
enum CatalogBlock {
    static let itemsPerBlock = 1024

    /// The catalog-wide tables that references point into.
    struct Tables: Sendable {
        var fieldNames: [String]
        var attributeNames: [String]
        /// By value number: its attribute's number and its text.
        var values: [(attribute: Int, text: String)]
    }

    /// The tables blocks reference, and the numbers of their entries.
    struct Numbers: Sendable {
        var tables: Tables
        var attributes: [String: Int]
        var values: [CatalogFilter: UInt32]
        /// Whether an attribute or value missing from the tables joins them (a writer numbering
        /// them as items come, as a catalog does) or goes to the block's local strings (blocks
        /// encoded in parallel against a catalog's own tables).
        let grows: Bool

        /// A catalog's own tables, fixed.
        init(_ catalog: Catalog) {
            tables = Tables(fieldNames: catalog.fields.map(\.name), attributeNames: catalog.attributeNames,
                            values: zip(catalog.valueAttribute, catalog.valueStrings).map { ($0, $1) })
            attributes = catalog.attributeNumbers
            values = catalog.valueNumbers
            grows = false
        }

        /// Empty tables that grow.
        init(fields: [CatalogField]) {
            tables = Tables(fieldNames: fields.map(\.name), attributeNames: [], values: [])
            attributes = [:]
            values = [:]
            grows = true
        }

        /// The number of `value` of `attribute`, adding both when growing (in the order a
        /// catalog numbers them: an attribute with its first value).
        mutating func number(of value: String, attribute name: String) -> UInt32? {
            let filter = CatalogFilter(name, value)
            if let number = values[filter] { return number }
            guard grows else { return nil }
            let attribute: Int
            if let known = attributes[name] {
                attribute = known
            } else {
                attribute = tables.attributeNames.count
                attributes[name] = attribute
                tables.attributeNames.append(name)
            }
            let number = UInt32(tables.values.count)
            values[filter] = number
            tables.values.append((attribute, value))
            return number
        }
    }

    /// `items` as a stored block, referencing the tables of `numbers`.
    static func encode(_ items: ArraySlice<CatalogItem>, numbers: inout Numbers) -> [UInt8] {
        var locals = LocalStrings()
        var columns = [UInt8]()
        var texts: [[UInt8]] = []
        for item in items { appendString(item.id, to: &columns) }
        let fieldNames = numbers.tables.fieldNames
        var references: [Int] = []
        for item in items {
            references.removeAll(keepingCapacity: true)
            for name in item.fields.keys {
                references.append(fieldNames.firstIndex(of: name).map { $0 << 1 } ?? locals.reference(to: name))
            }
            references.sort()
            TreeIndexFormat.appendVarint(UInt64(references.count), to: &columns)
            for reference in references {
                TreeIndexFormat.appendVarint(UInt64(reference), to: &columns)
                let name = reference & 1 == 0 ? fieldNames[reference >> 1] : locals.strings[reference >> 1]
                while texts.count <= reference { texts.append([]) }
                appendString(item.fields[name]!, to: &texts[reference])
            }
        }
        for column in texts { columns += column }
        for item in items {
            TreeIndexFormat.appendVarint(UInt64(item.attributes.count), to: &columns)
            for (name, values) in item.attributes.sorted(by: { $0.key < $1.key }) {
                // Values first: when growing, the attribute is numbered with its first value.
                references.removeAll(keepingCapacity: true)
                for value in values { references.append(numbers.number(of: value, attribute: name).map { Int($0) << 1 } ?? locals.reference(to: value)) }
                TreeIndexFormat.appendVarint(UInt64(numbers.attributes[name].map { $0 << 1 } ?? locals.reference(to: name)), to: &columns)
                TreeIndexFormat.appendVarint(UInt64(values.count), to: &columns)
                for reference in references { TreeIndexFormat.appendVarint(UInt64(reference), to: &columns) }
            }
        }
        var raw: [UInt8] = []
        raw.reserveCapacity(columns.count + 16)
        TreeIndexFormat.appendVarint(UInt64(locals.strings.count), to: &raw)
        for string in locals.strings { appendString(string, to: &raw) }
        raw += columns
        let stored = Deflate.compress(raw)
        var out: [UInt8] = []
        out.reserveCapacity(stored.count + 16)
        TreeIndexFormat.appendVarint(UInt64(items.count), to: &out)
        TreeIndexFormat.appendVarint(UInt64(raw.count), to: &out)
        TreeIndexFormat.appendVarint(UInt64(stored.count), to: &out)
        return out + stored
    }

    /// Where a block starts in a reader and what its header says; reading it moves past the block.
    struct Extent: Sendable {
        var itemCount: Int
        var rawLength: Int
        var stored: Range<Int>

        init(_ reader: inout TreeIndexFormat.Reader) throws(TreeIndexFormat.Error) {
            itemCount = try reader.count()
            let raw = try reader.varint()
            // Deflate expands by at most about 1032 times; a larger claim is corrupt, not memory
            // to reserve.
            let length = try reader.count()
            guard itemCount > 0, raw > 0, raw <= UInt64(length) * 1032 + 64 else { throw .corrupt("bad block") }
            rawLength = Int(raw)
            stored = reader.position..<(reader.position + length)
            _ = try reader.bytes(length)
        }
    }

    /// The items of the block at `extent` of `bytes`.
    static func decode(_ bytes: [UInt8], _ extent: Extent, tables: Tables) throws(TreeIndexFormat.Error) -> [CatalogItem] {
        guard let raw = Deflate.decompress(bytes[extent.stored], count: extent.rawLength) else { throw .corrupt("block that does not inflate") }
        var reader = TreeIndexFormat.Reader(bytes: raw, end: raw.count)
        var locals: [String] = []
        for _ in 0..<(try reader.count()) { locals.append(try string(&reader)) }
        func local(_ reference: UInt64) throws(TreeIndexFormat.Error) -> String {
            guard reference >> 1 < UInt64(locals.count) else { throw .corrupt("bad reference") }
            return locals[Int(reference >> 1)]
        }
        func name(_ reference: UInt64, in table: [String]) throws(TreeIndexFormat.Error) -> String {
            guard reference & 1 == 0 else { return try local(reference) }
            guard reference >> 1 < UInt64(table.count) else { throw .corrupt("bad reference") }
            return table[Int(reference >> 1)]
        }
        var items: [CatalogItem] = []
        items.reserveCapacity(extent.itemCount)
        for _ in 0..<extent.itemCount { items.append(CatalogItem(id: try string(&reader))) }
        // (reference, item) for each text, in the order the texts column holds them.
        var texts: [(reference: UInt64, item: Int)] = []
        for item in items.indices {
            var previous: UInt64? = nil
            for _ in 0..<(try reader.count()) {
                let reference = try reader.varint()
                guard previous.map({ $0 < reference }) ?? true else { throw .corrupt("field names out of order") }
                previous = reference
                texts.append((reference, item))
            }
        }
        texts.sort { ($0.reference, $0.item) < ($1.reference, $1.item) }
        for (reference, item) in texts {
            guard items[item].fields.updateValue(try string(&reader), forKey: try name(reference, in: tables.fieldNames)) == nil else {
                throw .corrupt("a field twice")
            }
        }
        for item in items.indices {
            for _ in 0..<(try reader.count()) {
                let attributeReference = try reader.varint()
                let attribute = try name(attributeReference, in: tables.attributeNames)
                var values: [String] = []
                for _ in 0..<(try reader.count()) {
                    let reference = try reader.varint()
                    if reference & 1 == 0 {
                        guard reference >> 1 < UInt64(tables.values.count) else { throw .corrupt("bad reference") }
                        let value = tables.values[Int(reference >> 1)]
                        guard UInt64(value.attribute) << 1 == attributeReference else { throw .corrupt("a value of another attribute") }
                        values.append(value.text)
                    } else {
                        values.append(try local(reference))
                    }
                }
                guard items[item].attributes.updateValue(values, forKey: attribute) == nil else { throw .corrupt("an attribute twice") }
            }
        }
        guard reader.position == raw.count else { throw .corrupt("trailing bytes in a block") }
        return items
    }

    static func appendString(_ string: String, to out: inout [UInt8]) {
        TreeIndexFormat.appendVarint(UInt64(string.utf8.count), to: &out)
        out += string.utf8
    }

    static func string(_ reader: inout TreeIndexFormat.Reader) throws(TreeIndexFormat.Error) -> String {
        let bytes = try reader.bytes(try reader.count())
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .corrupt("text that is not UTF-8") }
        return text
    }

    /// A block's own strings, numbered in order of first use.
    private struct LocalStrings {
        var strings: [String] = []
        private var numbers: [String: Int] = [:]

        /// The reference to `string` (odd: local), adding it when new.
        mutating func reference(to string: String) -> Int {
            if let number = numbers[string] { return number << 1 | 1 }
            numbers[string] = strings.count
            strings.append(string)
            return (strings.count - 1) << 1 | 1
        }
    }
}
