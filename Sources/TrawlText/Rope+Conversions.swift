import TrawlKernels

/// A zero-based line and column. The column's unit depends on the API that produced it: UTF-8
/// bytes or UTF-16 code units.
public struct TextPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The line, from 0.
    public var line: Int
    /// The column from the line's start, from 0: in UTF-8 bytes or UTF-16 code units, as the type says.
    public var column: Int

    /// The position at `line` and `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Positions order by line, then column.
    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

extension Rope {
    /// Moves an offset that falls inside a scalar to the scalar's start (`.backward`) or to the
    /// start of the next scalar (`.forward`); offsets outside the text are clamped to its ends.
    public func clamp(_ offset: Int, bias: Bias = .backward) -> Int {
        if offset <= 0 { return 0 }
        if offset >= utf8Count { return utf8Count }
        let (leaf, start) = leaf(containing: offset)
        var local = offset - start
        if bias == .backward {
            while local > 0 && isContinuationByte(leaf.bytes[local]) { local -= 1 }
        } else {
            while local < leaf.count && isContinuationByte(leaf.bytes[local]) { local += 1 }
        }
        return start + local
    }

    /// The measures of the text before a UTF-8 offset (an offset inside a scalar counts from the
    /// scalar's start). O(log n).
    public func summary(upTo offset: Int) -> TextSummary {
        precondition(offset >= 0 && offset <= utf8Count, "offset \(offset) out of bounds 0...\(utf8Count)")
        var node = Unmanaged.passUnretained(root) // the tree holds every node: no retain per level
        var before = TextSummary.zero
        var local = offset
        while node._withUnsafeGuaranteedRef({ $0.height > 0 }) {
            node = node._withUnsafeGuaranteedRef { node in
                var index = 0
                while index < node.count - 1 && local >= node.childUTF8[index] {
                    local -= node.childUTF8[index]
                    before += node.childSummaries[index]
                    index += 1
                }
                return Unmanaged.passUnretained(node.children[index])
            }
        }
        let leaf = node.takeUnretainedValue()
        while local > 0 && local < leaf.count && isContinuationByte(leaf.bytes[local]) { local -= 1 }
        return before + TextSummary(validUTF8: UnsafeBufferPointer(start: leaf.bytes, count: local))
    }

    /// The UTF-8 offset at which the text before it measures `value` in `metric`. O(log n).
    ///
    /// For `.newlines`, `value` is a zero-based line number and the result is the line's start.
    /// A UTF-16 `value` that falls between the two halves of a surrogate pair is moved to the
    /// scalar's start (`.backward`) or end (`.forward`).
    public func utf8Offset(of value: Int, in metric: TextMetric, bias: Bias = .backward) -> Int {
        precondition(value >= 0 && value <= root.summary[metric], "\(metric) offset \(value) out of bounds")
        if metric == .utf8 { return clamp(value, bias: bias) }
        if metric == .newlines && value == 0 { return 0 }
        // Unmanaged: the tree holds every node, and a retain and release per level would cost
        // about as much as the level's search.
        var node = Unmanaged.passUnretained(root)
        var start = 0
        var remaining = value
        while node._withUnsafeGuaranteedRef({ $0.height > 0 }) {
            node = node._withUnsafeGuaranteedRef { node in
                var index = 0
                let last = node.count - 1
                if metric == .newlines {
                    // Line `value` starts after the `value`-th line feed: find the child holding it.
                    let newlines = node.childMeasures(.newlines), lengths = node.childUTF8
                    while index < last && remaining > newlines[index] {
                        remaining -= newlines[index]
                        start += lengths[index]
                        index += 1
                    }
                } else {
                    let measures = node.childMeasures(metric), lengths = node.childUTF8
                    while index < last && remaining >= measures[index] {
                        remaining -= measures[index]
                        start += lengths[index]
                        index += 1
                    }
                }
                let child = Unmanaged.passUnretained(node.children[index])
                if metric == .newlines && node.height == 1 {
                    let (total, length) = (node.childMeasures(.newlines)[index], node.childUTF8[index])
                    child._withUnsafeGuaranteedRef { $0.prefetchForLine(remaining, of: total, in: length) }
                } else {
                    child._withUnsafeGuaranteedRef { $0.prefetchForSeek(by: metric, isLeaf: node.height == 1) }
                }
                return child
            }
        }
        return start + node._withUnsafeGuaranteedRef { $0.localUTF8Offset(of: remaining, in: metric, bias: bias) }
    }

    /// The UTF-16 offset of a UTF-8 offset.
    public func utf16Offset(ofUTF8 offset: Int) -> Int { summary(upTo: offset).utf16 }
    /// The scalar offset of a UTF-8 offset.
    public func scalarOffset(ofUTF8 offset: Int) -> Int { summary(upTo: offset).scalars }
    /// The UTF-8 offset of a UTF-16 offset.
    public func utf8Offset(ofUTF16 offset: Int, bias: Bias = .backward) -> Int {
        utf8Offset(of: offset, in: .utf16, bias: bias)
    }
    /// The UTF-8 offset of a scalar offset.
    public func utf8Offset(ofScalar offset: Int) -> Int { utf8Offset(of: offset, in: .scalars) }
    /// The UTF-8 offset where a zero-based line starts.
    public func utf8Offset(ofLine line: Int) -> Int { utf8Offset(of: line, in: .newlines) }
    /// The zero-based line holding a UTF-8 offset.
    public func line(ofUTF8 offset: Int) -> Int { summary(upTo: offset).newlines }

    /// The byte range of a zero-based line, with or without its line break (LF or CRLF).
    public func utf8Range(ofLine line: Int, includingLineBreak: Bool = true) -> Range<Int> {
        precondition(line >= 0 && line < lineCount, "line \(line) out of bounds")
        let start = utf8Offset(ofLine: line)
        guard line + 1 < lineCount else { return start..<utf8Count }
        var end = utf8Offset(ofLine: line + 1)
        if !includingLineBreak {
            end -= 1
            if end > start && byte(at: end - 1) == asciiCR { end -= 1 }
        }
        return start..<end
    }

    /// The line and UTF-8 column of a UTF-8 offset.
    public func position(ofUTF8 offset: Int) -> TextPosition {
        let line = line(ofUTF8: offset)
        return TextPosition(line: line, column: clamp(offset) - utf8Offset(ofLine: line))
    }

    /// The line and UTF-16 column of a UTF-8 offset (the convention of LSP and `NSString`).
    public func utf16Position(ofUTF8 offset: Int) -> TextPosition {
        let before = summary(upTo: offset)
        let lineStart = utf8Offset(ofLine: before.newlines)
        return TextPosition(line: before.newlines, column: before.utf16 - utf16Offset(ofUTF8: lineStart))
    }

    /// The UTF-8 offset of a line and UTF-8 column. A column past the line's end is clamped to the
    /// end (before the line break); one inside a scalar moves to the scalar's start; a line past the
    /// last is clamped to the end of the text.
    public func utf8Offset(of position: TextPosition) -> Int {
        guard position.line < lineCount else { return utf8Count }
        let range = utf8Range(ofLine: max(position.line, 0), includingLineBreak: false)
        return clamp(range.lowerBound + min(max(position.column, 0), range.count))
    }

    /// The UTF-8 offset of a line and UTF-16 column, clamped like ``utf8Offset(of:)``.
    public func utf8Offset(ofUTF16Position position: TextPosition, bias: Bias = .backward) -> Int {
        guard position.line < lineCount else { return utf8Count }
        let range = utf8Range(ofLine: max(position.line, 0), includingLineBreak: false)
        let lineStartUTF16 = utf16Offset(ofUTF8: range.lowerBound)
        let lineEndUTF16 = utf16Offset(ofUTF8: range.upperBound)
        let target = min(lineStartUTF16 + max(position.column, 0), lineEndUTF16)
        return utf8Offset(ofUTF16: target, bias: bias)
    }
}

extension Node {
    /// Within a leaf: the byte offset at which the bytes before it measure `value` in `metric`.
    func localUTF8Offset(of value: Int, in metric: TextMetric, bias: Bias) -> Int {
        switch metric {
        case .utf8:
            return value
        case .newlines:
            let total = summary.newlines
            if Node.scansFromEnd(line: value, of: total) {
                return trawl_offset_after_newline_from_end(bytes, count, total - value + 1)
            }
            return trawl_offset_after_newline(bytes, count, value)
        case .scalars:
            if summary.scalars == count { return value } // all ASCII
            return trawl_offset_of_scalar(bytes, count, value)
        case .utf16:
            if summary.utf16 == count { return value } // all ASCII
            var insidePair: Int32 = 0
            let offset = trawl_offset_of_utf16(bytes, count, value, &insidePair)
            return insidePair != 0 && bias == .forward ? offset + 4 : offset
        }
    }
}
