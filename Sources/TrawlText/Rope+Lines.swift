extension Rope {
    /// The start of the line holding `offset`: found by scanning back through the chunks (a line
    /// is usually short; one scan instead of the line index's several seeks).
    public func startOfLine(containing offset: Int) -> Int {
        for chunk in reversedChunks(upTo: offset) {
            let found = chunk.withUnsafeBytes { bytes in bytes.lastIndex(of: 0x0A) }
            if let found { return chunk.range.lowerBound + found + 1 }
        }
        return 0
    }

    /// The end of the line holding `offset`, after its line break (or the text's end).
    public func endOfLine(containing offset: Int) -> Int {
        for chunk in chunks(from: offset) {
            let found = chunk.withUnsafeBytes { bytes in bytes.firstIndex(of: 0x0A) }
            if let found { return chunk.range.lowerBound + found + 1 }
        }
        return utf8Count
    }
}
