@_spi(_Unicode) import Swift

/// Splits text into words and folds each one for matching: letters and digits of any script make
/// words (everything else separates them), and a word is compared lowercased with its diacritics
/// removed, so "Crème" and "CREME" are the same word.
///
/// ASCII words take a byte loop; other words are decomposed (NFD), stripped of combining marks and
/// lowercased per scalar. The decomposition comes from the standard library's SPI: the toolchain
/// has no public normalization API, and Foundation would cost every command its start-up time.
enum WordFolding {
    /// Calls `body` with each word's UTF-8 byte range in `text` and its folded UTF-8 bytes.
    static func forEachWord(in text: String, _ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { bytes in forEachWord(in: bytes, body) }
    }

    /// Calls `body` with each word's byte range in `bytes` (valid UTF-8) and its folded bytes.
    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Void) {
        scanWords(in: bytes, folding: true) { range, folded in
            body(range, folded)
            return true
        }
    }

    /// Calls `body` with each word's byte range in `text` until it returns false; the words are
    /// the words `forEachWord` finds, found without folding ASCII ones.
    @inline(__always) // with the scan: a highlight's otherwise cost a closure call and a retain per word
    static func forEachWordRange(in text: String, _ body: (Range<Int>) -> Bool) {
        var text = text
        text.withUTF8 { bytes in forEachWordRange(in: bytes, body) }
    }

    /// Calls `body` with each word's byte range in `bytes` (valid UTF-8) until it returns false;
    /// the words `forEachWord` finds, found without folding ASCII ones.
    @inline(__always) // see above
    static func forEachWordRange(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Bool) {
        scanWords(in: bytes, folding: false) { range, _ in body(range) }
    }

    /// The folded bytes of `bytes` (valid UTF-8) when they are one word as a whole; nil otherwise.
    static func foldedWord(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var words = 0
        var folded: [UInt8]? = nil
        forEachWord(in: bytes) { range, word in
            words += 1
            if range == 0..<bytes.count { folded = Array(word) }
        }
        return words == 1 ? folded : nil
    }

    /// Whether `bytes` (valid UTF-8, not empty) begin and end with a scalar that belongs to words
    /// (a mark, when they hold no word); nil when they hold a word.
    static func separatorEdges(_ bytes: UnsafeBufferPointer<UInt8>) -> (startsInWord: Bool, endsInWord: Bool)? {
        var holdsWord = false
        forEachWord(in: bytes) { _, _ in holdsWord = true }
        guard !holdsWord, !bytes.isEmpty else { return holdsWord ? nil : (false, false) }
        var last = bytes.count - 1
        while last > 0, bytes[last] & 0xC0 == 0x80 { last -= 1 }
        return (isWordScalar(in: bytes, at: 0), isWordScalar(in: bytes, at: last))
    }

    private static func isWordScalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        bytes[index] < 0x80 ? isASCIIWordByte(bytes[index]) : isWordScalar(decode(bytes, at: index).0)
    }

    /// The words of `bytes` (valid UTF-8) until `body` returns false; without `folding`, an ASCII
    /// word's folded bytes are not made (`body` gets them empty).
    @inline(__always) // see forEachWordRange
    private static func scanWords(in bytes: UnsafeBufferPointer<UInt8>, folding: Bool,
                                  _ body: (Range<Int>, UnsafeBufferPointer<UInt8>) -> Bool) {
        var folded: [UInt8] = []
        folded.reserveCapacity(64)
        var index = 0
        let count = bytes.count
        while index < count {
            // Skip separators.
            while index < count {
                let byte = bytes[index]
                if byte < 0x80 {
                    if isASCIIWordByte(byte) { break }
                    index += 1
                } else {
                    let (scalar, length) = decode(bytes, at: index)
                    if isWordScalar(scalar) { break }
                    index += length
                }
            }
            guard index < count else { return }
            let start = index
            var isASCII = true, hasUppercase = false
            while index < count {
                let byte = bytes[index]
                if byte < 0x80 {
                    guard isASCIIWordByte(byte) else { break }
                    hasUppercase = hasUppercase || byte &- 0x41 < 26
                    index += 1
                } else {
                    let (scalar, length) = decode(bytes, at: index)
                    guard isWordScalar(scalar) else { break }
                    isASCII = false
                    index += length
                }
            }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if !isASCII {
                // A run of nonspacing marks alone is no word: told from the text, not from its
                // folding, which makes a letter of one of them (the iota subscript).
                guard !isOnlyNonspacingMarks(word) else { continue }
                folded.removeAll(keepingCapacity: true)
                fold(word, into: &folded)
                guard folded.withUnsafeBufferPointer({ body(start..<index, $0) }) else { return }
            } else if !folding {
                guard body(start..<index, UnsafeBufferPointer(start: nil, count: 0)) else { return }
            } else if !hasUppercase {
                // Most words: folded as they stand, passed without a copy.
                guard body(start..<index, word) else { return }
            } else {
                folded.removeAll(keepingCapacity: true)
                folded.append(contentsOf: word)
                let goOn = folded.withUnsafeMutableBufferPointer { folded in
                    for position in folded.indices where folded[position] &- 0x41 < 26 { folded[position] |= 0x20 }
                    return body(start..<index, UnsafeBufferPointer(folded))
                }
                guard goOn else { return }
            }
        }
    }

    /// The folded words of `text`, as strings.
    static func words(of text: String) -> [String] {
        var words: [String] = []
        forEachWord(in: text) { _, folded in words.append(String(decoding: folded, as: UTF8.self)) }
        return words
    }

    /// Folds one word: NFD, combining marks dropped, each scalar case-folded.
    ///
    /// The standard library has no case folding, and lowercasing alone is not one: "ς" and "σ",
    /// "ß" and "ss", "ﬁ" and "fi" stay apart. Lowercasing, uppercasing and lowercasing again joins
    /// them (ẞ needs the first lowercasing: it uppercases to itself, ß to "SS"), and agrees with
    /// Unicode's full case folding but for dotless ı, which it folds to i, as a searcher typing
    /// without Turkish letters would want. Case mapping can compose (ΐ uppercases to three
    /// scalars), so the result is decomposed and stripped of marks again.
    @inline(never) // the rare path, kept out of the scan's loop
    private static func fold(_ word: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        let string = String(decoding: word, as: UTF8.self)
        for scalar in string._nfd {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            } else if !scalar.properties.changesWhenCaseMapped {
                if scalar.properties.generalCategory != .nonspacingMark { output.append(contentsOf: scalar.utf8) }
            } else {
                // The one cased mark, Greek's iota subscript (ᾳ), is a letter to case: ι, as
                // the capital ᾼ spells it "ΑΙ".
                // Strings of a few scalars are stored inline: the three mappings allocate nothing.
                let mapped = scalar.properties.lowercaseMapping.uppercased().lowercased()
                for folded in mapped._nfd where folded.properties.generalCategory != .nonspacingMark {
                    output.append(contentsOf: folded.utf8)
                }
            }
        }
    }

    @inline(never) // tracking this in the scan's loop instead made a large build several times slower
    private static func isOnlyNonspacingMarks(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < word.count {
            let (scalar, length) = decode(word, at: index)
            if scalar.properties.generalCategory != .nonspacingMark { return false }
            index += length
        }
        return true
    }

    @inline(__always)
    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
    }

    /// Letters, digits and marks of any script belong to words.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Decodes the scalar starting at `index` of valid UTF-8 (an invalid byte reads as U+FFFD).
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= bytes.count else { return ("\u{FFFD}", 1) }
        var value = UInt32(lead) & (0x7F >> UInt32(length))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
