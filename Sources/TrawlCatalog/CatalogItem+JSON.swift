extension CatalogItem {
    /// Why a JSON line is not a catalog item.
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong with the line ("no \"id\"", "not a JSON object"...), for a message.
        public var description: String
    }

    /// Reads an item from one line of JSON Lines:
    /// `{"id": "…", "fields": {"title": "…", "body": "…"}, "attributes": {"section": "…", "tags": ["…"]}}`.
    /// The id may be a string or a number; `fields` and `attributes` may be absent; an attribute
    /// is a string or an array of strings.
    public init(jsonLine line: String) throws(DecodingError) {
        if let item = Self.directly(line) {
            self = item
        } else {
            try self.init(jsonValueLine: line)
        }
    }

    /// The item of a well-formed line, read straight from its bytes; nil for anything else, which
    /// ``init(jsonValueLine:)`` then reads again and says what is wrong. Building a ``JSONValue``
    /// first (dictionaries of members, then the item's) took a third of a build of a million
    /// items.
    static func directly(_ line: String) -> CatalogItem? {
        var line = line
        return line.withUTF8 { bytes in
            var parser = JSONValue.Parser(bytes: bytes)
            return try? parser.catalogItem()
        } ?? nil
    }

    /// The item of `line` through a ``JSONValue``: every line, with the reason a bad one is bad.
    init(jsonValueLine line: String) throws(DecodingError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw DecodingError(description: "not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw DecodingError(description: "not a JSON object") }
        let id: String
        switch members["id"] {
        case .string(let text)?: id = text
        case .number(let text)?: id = text
        case nil: throw DecodingError(description: "no \"id\"")
        default: throw DecodingError(description: "\"id\" is not a string or a number")
        }
        var fields: [String: String] = [:]
        switch members["fields"] {
        case .object(let object)?:
            for (name, field) in object {
                switch field {
                case .string(let text): fields[name] = text
                case .null: break
                default: throw DecodingError(description: "field \"\(name)\" is not a string")
                }
            }
        case nil, .null?: break
        default: throw DecodingError(description: "\"fields\" is not an object")
        }
        var attributes: [String: [String]] = [:]
        switch members["attributes"] {
        case .object(let object)?:
            for (name, attribute) in object {
                switch attribute {
                case .string(let text): attributes[name] = [text]
                case .number(let text): attributes[name] = [text]
                case .null: break
                case .array(let elements):
                    var values: [String] = []
                    for element in elements {
                        switch element {
                        case .string(let text), .number(let text): values.append(text)
                        default: throw DecodingError(description: "attribute \"\(name)\" holds a value that is not a string")
                        }
                    }
                    attributes[name] = values
                default: throw DecodingError(description: "attribute \"\(name)\" is not a string or an array of strings")
                }
            }
        case nil, .null?: break
        default: throw DecodingError(description: "\"attributes\" is not an object")
        }
        self.init(id: id, fields: fields, attributes: attributes)
    }
}
