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
/// A reference below the count of the catalog's table (its searched fields, attribute names or
/// attribute values) names that entry; above it, an entry of the block's local strings, for names
/// and values the catalog's tables do not hold (an attribute whose every list is empty, a field
/// that is not searched).
enum CatalogBlock {
    static let itemsPerBlock = 1024

    /// The catalog-wide tables that references point into.
    struct Tables: Sendable {
        var fieldNames: [String]
        var attributeNames: [String]
        /// By value number: its attribute's number and its text.
        var values: [(attribute: Int, text: String)]
    }

    /// The numbers of a catalog's names and values, for encoding its blocks without copying it.
    struct Numbers: Sendable {
        var fieldNames: [String]
        var attributes: [String: Int]
        var values: [CatalogFilter: UInt32]

        init(_ catalog: Catalog) {
            fieldNames = catalog.fields.map(\.name)
            attributes = catalog.attributeNumbers
            values = catalog.valueNumbers
        }
    }

    /// `items` as a stored block, referencing the catalog's tables by `numbers`.
    static func encode(_ items: ArraySlice<CatalogItem>, numbers: Numbers) -> [UInt8] {
        var locals = LocalStrings()
        var columns = [UInt8]()
        var texts: [[UInt8]] = []
        for item in items { appendString(item.id, to: &columns) }
        var references: [Int] = []
        for item in items {
            references.removeAll(keepingCapacity: true)
            for name in item.fields.keys {
                references.append(numbers.fieldNames.firstIndex(of: name) ?? numbers.fieldNames.count + locals.number(of: name))
            }
            references.sort()
            TreeIndexFormat.appendVarint(UInt64(references.count), to: &columns)
            for reference in references {
                TreeIndexFormat.appendVarint(UInt64(reference), to: &columns)
                let name = reference < numbers.fieldNames.count ? numbers.fieldNames[reference] : locals.strings[reference - numbers.fieldNames.count]
                while texts.count <= reference { texts.append([]) }
                appendString(item.fields[name]!, to: &texts[reference])
            }
        }
        for column in texts { columns += column }
        let attributeCount = numbers.attributes.count, valueCount = numbers.values.count
        for item in items {
            TreeIndexFormat.appendVarint(UInt64(item.attributes.count), to: &columns)
            for (name, values) in item.attributes {
                let attribute = numbers.attributes[name]
                TreeIndexFormat.appendVarint(UInt64(attribute ?? attributeCount + locals.number(of: name)), to: &columns)
                TreeIndexFormat.appendVarint(UInt64(values.count), to: &columns)
                for value in values {
                    let number = attribute == nil ? nil : numbers.values[CatalogFilter(name, value)]
                    TreeIndexFormat.appendVarint(UInt64(number.map(Int.init) ?? valueCount + locals.number(of: value)), to: &columns)
                }
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
        func name(_ reference: UInt64, in table: [String]) throws(TreeIndexFormat.Error) -> String {
            if reference < UInt64(table.count) { return table[Int(reference)] }
            guard reference - UInt64(table.count) < UInt64(locals.count) else { throw .corrupt("bad reference") }
            return locals[Int(reference) - table.count]
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
                    if reference < UInt64(tables.values.count) {
                        let value = tables.values[Int(reference)]
                        guard UInt64(value.attribute) == attributeReference else { throw .corrupt("a value of another attribute") }
                        values.append(value.text)
                    } else {
                        values.append(try name(reference - UInt64(tables.values.count), in: []))
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

        mutating func number(of string: String) -> Int {
            if let number = numbers[string] { return number }
            numbers[string] = strings.count
            strings.append(string)
            return strings.count - 1
        }
    }
}
