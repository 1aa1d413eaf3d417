import TrawlText

/// What replacing every match in one text changes: the replaced ranges, in order and without
/// overlap, each with its template already expanded.
///
/// One plan serves an editor's "replace all" (applied to a ``Rope`` as one batch of edits) and a
/// batch replace over files (applied to the file's bytes, then written atomically), so both give
/// the same result. For texts too large to hold every change, ``forEachChange(matching:in:range:template:_:)``
/// produces the same changes one at a time.
public struct ReplacementPlan: Sendable, Equatable {
    /// One replacement: the bytes it replaces and the bytes that go in their place.
    public struct Change: Sendable, Equatable {
        /// The replaced bytes' range in the text.
        public var range: Range<Int>
        /// The bytes put in their place (valid UTF-8).
        public var replacement: [UInt8]

        /// A change replacing `range` with `replacement`.
        public init(range: Range<Int>, replacement: [UInt8]) {
            self.range = range
            self.replacement = replacement
        }
    }

    /// The changes, in text order, none overlapping another.
    public let changes: [Change]

    /// A plan of the given changes, which must be in order and must not overlap.
    public init(changes: [Change]) {
        precondition(zip(changes, changes.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound },
                     "changes must be in order and must not overlap")
        self.changes = changes
    }

    /// The plan that replaces every match of `matcher` in `range` of `text` (the whole text by
    /// default) with `template` expanded for it.
    public init(matching matcher: any Matcher, in text: some SearchableText, range: Range<Int>? = nil,
                template: ReplacementTemplate) throws(MatchError) {
        var changes: [Change] = []
        try ReplacementPlan.forEachChange(matching: matcher, in: text, range: range, template: template) { changes.append($0) }
        self.changes = changes
    }

    /// Whether nothing would change.
    public var isEmpty: Bool { changes.isEmpty }

    /// Calls `body` with each change of the plan ``init(matching:in:range:template:)`` would make, in
    /// order, without keeping them: memory stays flat however many there are.
    public static func forEachChange(matching matcher: any Matcher, in text: some SearchableText, range: Range<Int>? = nil,
                                     template: ReplacementTemplate, _ body: (Change) throws(MatchError) -> Void) throws(MatchError) {
        var changes = ChangeCursor(matching: matcher, in: text, range: range, template: template)
        while let change = try changes.next() { try body(change) }
    }

    /// Streams the text with every match of `matcher` replaced to `sink`, piece by piece (the
    /// unchanged stretches of `bytes`, which hold `text`, and the replacements), without keeping the
    /// changes; returns how many there were. What a batch replace writes to its new file.
    /// - Throws: a ``MatchError`` from matching, or what `sink` throws; then the output is partial.
    public static func writeReplacing(matching matcher: any Matcher, in text: some SearchableText, bytes: UnsafeBufferPointer<UInt8>,
                                      template: ReplacementTemplate, to sink: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Int {
        var changes = ChangeCursor(matching: matcher, in: text, template: template)
        return try writePieces(bytes, to: sink) { () throws(any Error) in try changes.next() }
    }

    /// The one place a new text is assembled: for each change (from `nextChange`, in order), the
    /// unchanged stretch before it, then its replacement; then the rest of `bytes`.
    static func writePieces<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>, to sink: (UnsafeBufferPointer<UInt8>) throws(E) -> Void,
                                      nextChange: () throws(E) -> Change?) throws(E) -> Int {
        var copied = 0, count = 0
        while let change = try nextChange() {
            try sink(UnsafeBufferPointer(rebasing: bytes[copied..<change.range.lowerBound]))
            let result = change.replacement.withUnsafeBufferPointer { pointer in Result { () throws(E) in try sink(pointer) } }
            try result.get()
            copied = change.range.upperBound
            count += 1
        }
        try sink(UnsafeBufferPointer(rebasing: bytes[copied...]))
        return count
    }

    /// `bytes` with the changes made. Everything outside the replaced ranges (a byte-order mark,
    /// LF or CRLF line endings) is copied byte for byte.
    public func applied(to bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + changes.reduce(0) { $0 + $1.replacement.count - $1.range.count })
        write(bytes) { output.append(contentsOf: $0) }
        return output
    }

    /// Hands the new text to `sink` piece by piece: unchanged stretches of `bytes` and replacements.
    public func write<E: Error>(_ bytes: UnsafeBufferPointer<UInt8>, to sink: (UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        var next = changes.makeIterator()
        _ = try ReplacementPlan.writePieces(bytes, to: sink) { () throws(E) in next.next() }
    }

    /// Makes the changes in `rope` as one batch and returns the edits in the order they were made
    /// (from the last change to the first, so each edit's offsets hold in the text it was made on
    /// and in the original text alike). Replacements are valid UTF-8: templates expand to strings.
    @discardableResult
    public func apply(to rope: inout Rope) -> [TextEdit] {
        var edits: [TextEdit] = []
        edits.reserveCapacity(changes.count)
        for change in changes.reversed() {
            let edit = change.replacement.withUnsafeBytes { bytes in
                try! rope.replace(change.range, withValidating: bytes) // expanded from a String: valid UTF-8
            }
            edits.append(edit)
        }
        return edits
    }
}

/// The changes of replacing every match of a matcher, produced one at a time from a match cursor
/// (non-copyable, as the cursor it holds).
public struct ChangeCursor: ~Copyable {
    private var cursor: MatchCursor
    private let template: ReplacementTemplate
    private let text: any SearchableText
    /// The bytes every match gets, when the template expands to the same bytes every time.
    private let constant: [UInt8]?

    /// The changes in `range` of `text` (the whole text by default).
    public init(matching matcher: any Matcher, in text: some SearchableText, range: Range<Int>? = nil, template: ReplacementTemplate) {
        cursor = matcher.cursor(over: text, in: range ?? 0..<text.utf8Count)
        cursor.capturesGroups = !template.isStatic
        self.template = template
        self.text = text
        // A template that names no group (and does not follow the matched case) expands to the
        // same bytes every time: make them once.
        constant = template.isStatic && !template.preserveCase ? Array(template.expand(Match(range: 0..<0)) { _ in [] }.utf8) : nil
    }

    /// The next change, or `nil` when there are no more.
    public mutating func next() throws(MatchError) -> ReplacementPlan.Change? {
        guard let match = try cursor.next() else { return nil }
        return ReplacementPlan.Change(range: match.range, replacement: constant ?? Array(template.expand(match, in: text).utf8))
    }
}
