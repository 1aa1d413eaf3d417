/// A record of one change to a text: the UTF-8 byte range it replaced in the old text and the number
/// of bytes inserted in its place.
///
/// Every mutation of a ``Rope`` returns these records; undo, indexes, match sets and selections
/// update from them without rescanning the text.
public struct TextEdit: Hashable, Sendable, CustomStringConvertible {
    /// The replaced range, in UTF-8 offsets of the text before the edit.
    public var replacedRange: Range<Int>
    /// The number of UTF-8 bytes inserted at `replacedRange.lowerBound`.
    public var insertedCount: Int

    /// The edit that replaced `replacedRange` with `insertedCount` bytes.
    public init(replacedRange: Range<Int>, insertedCount: Int) {
        precondition(replacedRange.lowerBound >= 0 && insertedCount >= 0)
        self.replacedRange = replacedRange
        self.insertedCount = insertedCount
    }

    /// The range the inserted text occupies in the text after the edit.
    public var insertedRange: Range<Int> { replacedRange.lowerBound..<(replacedRange.lowerBound + insertedCount) }

    /// How much the text's length changed.
    public var lengthDelta: Int { insertedCount - replacedRange.count }

    /// Maps an offset in the old text to the new text. Offsets inside the replaced range move to
    /// the start of the insertion (`.backward`) or its end (`.forward`).
    public func transform(_ offset: Int, bias: Bias = .forward) -> Int {
        if offset < replacedRange.lowerBound { return offset }
        if offset >= replacedRange.upperBound && !(offset == replacedRange.lowerBound && bias == .backward) {
            return offset + lengthDelta
        }
        return bias == .backward ? replacedRange.lowerBound : replacedRange.lowerBound + insertedCount
    }

    /// The range and count, for debugging.
    public var description: String { "TextEdit(\(replacedRange) -> \(insertedCount) bytes)" }
}

/// Which way an offset moves when it must be adjusted: toward the start or toward the end.
public enum Bias: Sendable, Hashable {
    case backward
    case forward
}
