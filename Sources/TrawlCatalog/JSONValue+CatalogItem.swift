extension JSONValue.Parser {
    /// A catalog item's line read without building a ``JSONValue``; nil when the line is not
    /// exactly a well-formed item (the caller then reads it the general way). Duplicate members
    /// keep the last, as an object does.
    mutating func catalogItem() throws(JSONValue.ParseError) -> CatalogItem? {
        skipSpace()
        guard next(is: "{") else { return nil }
        var id: String?
        var fields: [String: String] = [:]
        var attributes: [String: [String]] = [:]
        if !next(is: "}") {
            while true {
                guard let name = try memberName() else { return nil }
                switch name {
                case "id":
                    guard index < bytes.count else { return nil }
                    switch bytes[index] {
                    case UInt8(ascii: "\""): id = try string()
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): id = try number()
                    default: return nil
                    }
                case "fields":
                    guard let members = try fieldMembers() else { return nil }
                    fields = members
                case "attributes":
                    guard let members = try attributeMembers() else { return nil }
                    attributes = members
                default:
                    _ = try value(depth: 1)
                }
                if next(is: ",") { continue }
                guard next(is: "}") else { return nil }
                break
            }
        }
        skipSpace()
        guard index == bytes.count, let id else { return nil }
        return CatalogItem(id: id, fields: fields, attributes: attributes)
    }

    /// `"name":` with the space around it, or nil.
    private mutating func memberName() throws(JSONValue.ParseError) -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let name = try string()
        guard next(is: ":") else { return nil }
        skipSpace()
        return name
    }

    /// Skips space, then steps over `byte` if it comes next.
    private mutating func next(is byte: Unicode.Scalar) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: byte) else { return false }
        index += 1
        return true
    }

    private mutating func isNull() throws(JSONValue.ParseError) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        try keyword("null")
        return true
    }

    /// `{"name": "text" or null, ...}` or null.
    private mutating func fieldMembers() throws(JSONValue.ParseError) -> [String: String]? {
        var members: [String: String] = [:]
        if try isNull() { return members }
        guard next(is: "{") else { return nil }
        if next(is: "}") { return members }
        while true {
            guard let name = try memberName(), index < bytes.count else { return nil }
            if try isNull() {
                members[name] = nil
            } else {
                guard bytes[index] == UInt8(ascii: "\"") else { return nil }
                members[name] = try string()
            }
            if next(is: ",") { continue }
            return next(is: "}") ? members : nil
        }
    }

    /// `{"name": value, ...}` or null, a value being a string, a number, null or an array of
    /// strings and numbers.
    private mutating func attributeMembers() throws(JSONValue.ParseError) -> [String: [String]]? {
        var members: [String: [String]] = [:]
        if try isNull() { return members }
        guard next(is: "{") else { return nil }
        if next(is: "}") { return members }
        while true {
            guard let name = try memberName() else { return nil }
            if try isNull() {
                members[name] = nil
            } else if next(is: "[") {
                var values: [String] = []
                if !next(is: "]") {
                    while true {
                        skipSpace()
                        guard let value = try scalarText() else { return nil }
                        values.append(value)
                        if next(is: ",") { continue }
                        guard next(is: "]") else { return nil }
                        break
                    }
                }
                members[name] = values
            } else {
                guard let value = try scalarText() else { return nil }
                members[name] = [value]
            }
            if next(is: ",") { continue }
            return next(is: "}") ? members : nil
        }
    }

    /// A string's text or a number's digits, or nil.
    private mutating func scalarText() throws(JSONValue.ParseError) -> String? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: return nil
        }
    }
}
