/// What every match of a pattern must contain, as an AND/OR tree of literals: the engine-neutral
/// form of the required-literal analysis, from which an index builds its n-gram query (Russ Cox's
/// "regular expression matching with a trigram index").
///
/// The query is sound, not exact: a text that holds a match always satisfies it; a text that
/// satisfies it may hold no match. ``all`` is the query that every text satisfies (nothing is
/// known, so nothing can be skipped).
public indirect enum LiteralQuery: Hashable, Sendable, CustomStringConvertible {
    /// Every text may match.
    case all
    /// The text contains this literal.
    case literal(QueryLiteral)
    /// The text satisfies every one of these (at least two, none ``all``).
    case and([LiteralQuery])
    /// The text satisfies at least one of these (at least two, none ``all``).
    case or([LiteralQuery])

    /// Whether `text` satisfies the query: the test a candidate passes before it is searched.
    public func isSatisfied(by text: some Collection<UInt8>) -> Bool {
        let bytes = Array(text)
        return bytes.withUnsafeBufferPointer { isSatisfied(in: $0) }
    }

    private func isSatisfied(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .all: true
        case .literal(let literal): literal.occurs(in: bytes)
        case .and(let parts): parts.allSatisfy { $0.isSatisfied(in: bytes) }
        case .or(let parts): parts.contains { $0.isSatisfied(in: bytes) }
        }
    }

    /// Every literal in the query.
    public var literals: [QueryLiteral] {
        switch self {
        case .all: []
        case .literal(let literal): [literal]
        case .and(let parts), .or(let parts): parts.flatMap { $0.literals }
        }
    }

    /// The query in a readable form, for tests and debugging.
    public var description: String {
        switch self {
        case .all: "ALL"
        case .literal(let literal): literal.description
        case .and(let parts): "(" + parts.map { $0.description }.joined(separator: " AND ") + ")"
        case .or(let parts): "(" + parts.map { $0.description }.joined(separator: " OR ") + ")"
        }
    }

    /// The conjunction, simplified: ``all`` parts dropped, nested ANDs flattened, a literal
    /// dropped when another part's literal contains it.
    package static func conjunction(_ parts: [LiteralQuery]) -> LiteralQuery {
        var flat: [LiteralQuery] = []
        for part in parts {
            switch part {
            case .all: continue
            case .and(let inner): flat.append(contentsOf: inner)
            default: flat.append(part)
            }
        }
        flat = deduplicated(flat)
        // A literal is implied by any longer literal that contains it.
        flat = flat.filter { part in
            guard case .literal(let short) = part else { return true }
            return !flat.contains { other in
                guard case .literal(let long) = other, long != short else { return false }
                return long.contains(short)
            }
        }
        switch flat.count {
        case 0: return .all
        case 1: return flat[0]
        default: return .and(flat)
        }
    }

    /// The disjunction, simplified: ``all`` if any part is, nested ORs flattened, a literal dropped
    /// when another literal of the disjunction is contained in it.
    package static func disjunction(_ parts: [LiteralQuery]) -> LiteralQuery {
        var flat: [LiteralQuery] = []
        for part in parts {
            switch part {
            case .all: return .all
            case .or(let inner): flat.append(contentsOf: inner)
            default: flat.append(part)
            }
        }
        flat = deduplicated(flat)
        // Containing the shorter literal is the weaker (so the sufficient) condition.
        flat = flat.filter { part in
            guard case .literal(let long) = part else { return true }
            return !flat.contains { other in
                guard case .literal(let short) = other, long != short else { return false }
                return long.contains(short)
            }
        }
        switch flat.count {
        case 0: return .all
        case 1: return flat[0]
        default: return .or(flat)
        }
    }

    /// One of the literals of a set (an empty literal makes the whole set ``all``).
    package static func anyOf(_ set: Set<[UInt16]>) -> LiteralQuery {
        if set.contains(where: { $0.isEmpty }) { return .all }
        return disjunction(set.sorted { $0.lexicographicallyPrecedes($1) }.map { .literal(QueryLiteral(units: $0)) })
    }

    private static func deduplicated(_ parts: [LiteralQuery]) -> [LiteralQuery] {
        var seen = Set<LiteralQuery>()
        return parts.filter { seen.insert($0).inserted }
    }
}

/// A literal of a ``LiteralQuery``: bytes, some of which may be ASCII letters that match in either
/// case.
public struct QueryLiteral: Hashable, Sendable, CustomStringConvertible {
    /// The bytes; a letter that matches in either ASCII case is lowercase here.
    public let bytes: [UInt8]
    /// For each byte, whether it is a letter that matches in either ASCII case.
    public let caseless: [Bool]

    /// A unit below 0x100 is an exact byte; `caselessFlag | lowercase letter` matches the letter in
    /// either ASCII case.
    package static let caselessFlag: UInt16 = 0x100

    package init(units: [UInt16]) {
        bytes = units.map { UInt8($0 & 0xFF) }
        caseless = units.map { $0 & QueryLiteral.caselessFlag != 0 }
    }

    /// A literal of these bytes, each a letter matching in either ASCII case where `caseless`
    /// says so (then lowercase); `nil` when they do not fit (lengths differ, an uppercase or
    /// non-letter byte marked caseless). For a literal carried as data.
    public init?(bytes: [UInt8], caseless: [Bool]) {
        guard bytes.count == caseless.count,
              zip(bytes, caseless).allSatisfy({ byte, flag in !flag || (0x61...0x7A).contains(byte) }) else { return nil }
        self.init(units: zip(bytes, caseless).map { $1 ? QueryLiteral.caselessFlag | UInt16($0) : UInt16($0) })
    }

    /// A literal of exact bytes, or of ASCII-caseless ones (letters are lowercased).
    public init(_ text: String, ignoringASCIICase: Bool = false) {
        self.init(units: text.utf8.map { byte in
            let lower = byte | 0x20
            return ignoringASCIICase && (0x61...0x7A).contains(lower) ? QueryLiteral.caselessFlag | UInt16(lower) : UInt16(byte)
        })
    }

    /// Whether any byte matches in either case.
    public var isCaseless: Bool { caseless.contains(true) }

    /// Whether byte `index` of the literal matches `byte`.
    public func unit(_ index: Int, matches byte: UInt8) -> Bool {
        caseless[index] ? (byte | 0x20) == bytes[index] : byte == bytes[index]
    }

    /// Whether every match of `other` occurs inside every match of this literal.
    package func contains(_ other: QueryLiteral) -> Bool {
        guard other.bytes.count <= bytes.count else { return false }
        return (0...(bytes.count - other.bytes.count)).contains { start in
            other.bytes.indices.allSatisfy { index in
                // A caseless unit here may take either case, so it implies only a caseless unit.
                bytes[start + index] == other.bytes[index] && (!caseless[start + index] || other.caseless[index])
            }
        }
    }

    /// Whether the literal occurs in `text`.
    package func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= text.count else { return false }
        if bytes.isEmpty { return true }
        return (0...(text.count - bytes.count)).contains { start in
            bytes.indices.allSatisfy { unit($0, matches: text[start + $0]) }
        }
    }

    /// The query in a readable form, for tests and debugging.
    public var description: String {
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        return isCaseless ? "i" + text : text
    }
}
