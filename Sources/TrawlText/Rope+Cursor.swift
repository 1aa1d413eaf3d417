extension Rope {
    /// A position in a rope that can be sought by any measure and read from in both directions.
    ///
    /// The cursor holds a snapshot of the rope: later edits to the rope it came from do not move
    /// or invalidate it.
    ///
    /// ```swift
    /// var cursor = rope.cursor()
    /// cursor.seek(to: 10, in: .newlines)        // the start of line 10
    /// cursor.measures.utf16                      // the UTF-16 offset there
    /// for chunk in cursor.chunksForward() { ... }
    /// ```
    public struct Cursor: Sendable {
        /// The text the cursor moves in.
        public let rope: Rope
        /// The position, as a UTF-8 offset (always on a scalar boundary).
        public private(set) var offset: Int

        init(rope: Rope, offset: Int) {
            self.rope = rope
            self.offset = rope.clamp(offset)
        }

        /// Moves to where the text before the cursor measures `value` in `metric` (for
        /// `.newlines`, to the start of line `value`). O(log n).
        public mutating func seek(to value: Int, in metric: TextMetric, bias: Bias = .backward) {
            offset = rope.utf8Offset(of: value, in: metric, bias: bias)
        }

        /// Moves to a UTF-8 offset (moved to a scalar boundary by `bias`).
        public mutating func seek(toUTF8 offset: Int, bias: Bias = .backward) {
            self.offset = rope.clamp(offset, bias: bias)
        }

        /// The measures of the text before the cursor: its offset in every unit and its line. O(log n).
        public var measures: TextSummary { rope.summary(upTo: offset) }

        /// The chunks from the cursor to the end.
        public func chunksForward() -> Chunks { rope.chunks(from: offset) }

        /// The chunks before the cursor, from the nearest back to the start.
        public func chunksBackward() -> ReversedChunks { rope.reversedChunks(upTo: offset) }

        /// The scalar after the cursor, or `nil` at the end.
        public var scalarAfter: Unicode.Scalar? {
            guard offset < rope.utf8Count else { return nil }
            return rope[offset..<rope.clamp(offset + 1, bias: .forward)].unicodeScalars.first
        }

        /// The scalar before the cursor, or `nil` at the start.
        public var scalarBefore: Unicode.Scalar? {
            guard offset > 0 else { return nil }
            return rope[rope.clamp(offset - 1)..<offset].unicodeScalars.first
        }

        /// Moves `count` scalars forward (or backward when negative), stopping at the ends.
        public mutating func move(byScalars count: Int) {
            let target = max(0, min(rope.scalarCount, rope.scalarOffset(ofUTF8: offset) + count))
            offset = rope.utf8Offset(ofScalar: target)
        }
    }

    /// A cursor at a UTF-8 offset (the start by default).
    public func cursor(at offset: Int = 0) -> Cursor { Cursor(rope: self, offset: offset) }
}
