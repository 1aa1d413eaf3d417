import TrawlKernels

/// Finds occurrences of any of a small set of literals in chunked text, reading chunks in place.
///
/// A single literal of two or more bytes is found with a SIMD scan for its two rarest bytes at
/// their distance (memchr's "packed pair" idea), which leaves few false candidates even when each
/// byte alone is common; starts whose bytes straddle a chunk boundary are checked one by one. A set
/// of literals is found by scanning for the rarest byte of each (glibc `memchr` for one byte, an
/// SSE2 kernel for up to 16) and verifying around each hit. Occurrences come in order of their
/// anchor positions, which for a single literal is the order of their starts.
final class LiteralScanner {
    let literals: [PrefilterLiteral]
    private let anchors: [Int]
    private let anchorSet: [UInt8]
    private let minAnchor: Int
    let text: any SearchableText
    let range: Range<Int>
    @exclusivity(unchecked) private var chunks: (any IteratorProtocol<TextChunk>)?
    @exclusivity(unchecked) private var currentChunk: TextChunk?
    @exclusivity(unchecked) private var resume: Int
    private let pair: Pair?
    /// For a small set of literals of two or more bytes: one pair scanner per literal, merged by
    /// start. Far fewer false candidates than scanning for one rare byte of each.
    private let parts: [LiteralScanner]?
    @exclusivity(unchecked) private var found: [Range<Int>?] = []
    @exclusivity(unchecked) private var lastPart = 0

    /// The bytes of the chunk read last, without touching its owner's reference count (the
    /// scanner keeps the chunk, and so its storage, alive).
    var chunkBytes: UnsafeBufferPointer<UInt8> { parts.map { $0[lastPart].currentBytes } ?? currentBytes }
    /// The offset of ``chunkBytes`` in the text.
    var chunkOffset: Int { parts.map { $0[lastPart].currentOffset } ?? currentOffset }
    @exclusivity(unchecked) private var currentBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    @exclusivity(unchecked) private var currentOffset = 0

    private struct Pair {
        var offset1: Int, fold1: UInt8, byte1: UInt8
        var offset2: Int, fold2: UInt8, byte2: UInt8

        init(_ literal: PrefilterLiteral) {
            let first = literal.pairFirst, second = literal.pairSecond
            func parts(_ unit: UInt16) -> (UInt8, UInt8) {
                unit & PrefilterLiteral.caselessFlag != 0 ? (0x20, UInt8(unit & 0xFF)) : (0, UInt8(unit))
            }
            (fold1, byte1) = parts(literal.units[first])
            (fold2, byte2) = parts(literal.units[second])
            offset1 = first
            offset2 = second
        }
    }

    /// The largest number of distinct bytes scanned for at once.
    static let maxAnchorBytes = 16

    /// Whether a set can be scanned (it has no empty literal and few enough anchor bytes).
    static func canScan(_ set: PrefilterSet) -> Bool {
        guard !set.literals.isEmpty, set.literals.allSatisfy({ $0.count > 0 }) else { return false }
        return Set(set.literals.flatMap { PrefilterLiteral.bytes(of: $0.units[$0.anchorIndex]) }).count <= maxAnchorBytes
    }

    init(literals: [PrefilterLiteral], text: any SearchableText, range: Range<Int>) {
        self.literals = literals
        anchors = literals.map(\.anchorIndex)
        anchorSet = Array(Set(zip(literals, anchors).flatMap { PrefilterLiteral.bytes(of: $0.units[$1]) })).sorted()
        minAnchor = anchors.min() ?? 0
        self.text = text
        self.range = range
        resume = range.lowerBound
        pair = literals.count == 1 && literals[0].count >= 2 ? Pair(literals[0]) : nil
        if literals.count > 1 && literals.count <= 8 && literals.allSatisfy({ $0.count >= 2 }) {
            parts = literals.map { LiteralScanner(literals: [$0], text: text, range: range) }
            found = Array(repeating: nil, count: literals.count)
        } else {
            parts = nil
        }
    }

    /// The next occurrence starting at or after `position`. Positions passed to successive calls
    /// must not decrease.
    /// - Throws: ``MatchError/cancelled`` when the task is cancelled during a long scan.
    func next(from position: Int) throws(MatchError) -> Range<Int>? {
        if let pair { return try nextByPair(pair, from: position) }
        if let parts {
            var best: Range<Int>?
            for (index, part) in parts.enumerated() {
                if found[index] == nil || found[index]!.lowerBound < position {
                    found[index] = try part.next(from: position) ?? Int.max..<Int.max
                }
                if let candidate = found[index], candidate.lowerBound != Int.max, best.map({ candidate.lowerBound < $0.lowerBound }) ?? true {
                    best = candidate
                    lastPart = index
                }
            }
            return best
        }
        var scan = max(resume, position + minAnchor)
        var chunksScanned = 0
        while scan < range.upperBound {
            chunksScanned += 1
            if chunksScanned & 63 == 0 && Task.isCancelled { throw .cancelled }
            guard let current = chunkContaining(scan) else { return nil }
            let local = scan - current.offset
            let found = anchorSet.withUnsafeBufferPointer { set in
                trawl_find_any_byte(current.bytes.baseAddress! + local, current.bytes.count - local, set.baseAddress!, set.count)
            }
            if local + found == current.bytes.count {
                scan = current.end
                continue
            }
            let hit = current.offset + local + found
            let byte = current.bytes[local + found]
            var best: Range<Int>?
            for (index, literal) in literals.enumerated() where PrefilterLiteral.unit(literal.units[anchors[index]], matches: byte) {
                let start = hit - anchors[index], end = start + literal.count
                guard start >= position, start >= range.lowerBound, end <= range.upperBound else { continue }
                if best.map({ start < $0.lowerBound }) ?? true, verify(literal, at: start) { best = start..<end }
            }
            if let best {
                resume = hit
                return best
            }
            scan = hit + 1
        }
        resume = range.upperBound
        return nil
    }

    private func nextByPair(_ pair: Pair, from position: Int) throws(MatchError) -> Range<Int>? {
        let literal = literals[0]
        let length = literal.count
        var start = max(resume, position)
        var chunksScanned = 0
        while start + length <= range.upperBound {
            chunksScanned += 1
            if chunksScanned & 63 == 0 && Task.isCancelled { throw .cancelled }
            guard let current = chunkContaining(start) else { break }
            let base = current.bytes.baseAddress!
            let local = start - current.offset
            let fitting = current.bytes.count - length + 1 // starts whose literal lies in this chunk
            if local < fitting {
                let found = trawl_find_pair(base + local, fitting - local, pair.offset1, pair.fold1, pair.byte1,
                                            pair.offset2, pair.fold2, pair.byte2)
                if found < fitting - local {
                    let candidate = current.offset + local + found
                    if verify(literal, at: candidate) {
                        resume = candidate // inclusive: asking again from before it returns it again
                        return candidate..<(candidate + length)
                    }
                    start = candidate + 1
                    continue
                }
                start = current.offset + fitting
            }
            // Starts whose literal runs into the next chunk: check the first unit, then gather.
            let first = literal.units[0]
            while start < current.end {
                if start + length > range.upperBound { break }
                if PrefilterLiteral.unit(first, matches: base[start - current.offset]),
                   matchesPrefixInChunk(literal, at: start, in: current), verify(literal, at: start) {
                    resume = start
                    return start..<(start + length)
                }
                start += 1
            }
        }
        resume = range.upperBound
        return nil
    }

    /// The chunk holding `offset`, moving forward (or re-seeking when far ahead).
    private func chunkContaining(_ offset: Int) -> TextChunk? {
        if let current = currentChunk, current.offset <= offset, offset < current.end { return current }
        if currentChunk == nil || offset < currentChunk!.offset || offset >= currentChunk!.end + 256 * 1024 {
            chunks = text.chunks(forwardIn: offset..<range.upperBound)
        }
        while true {
            guard let next = chunks?.next() else {
                currentChunk = nil
                currentBytes = UnsafeBufferPointer(start: nil, count: 0)
                return nil
            }
            if next.end > offset {
                currentChunk = next
                currentBytes = next.bytes
                currentOffset = next.offset
                return next
            }
        }
    }

    /// Whether the part of `literal` at `start` that lies inside `chunk` matches (checked before
    /// gathering bytes across the boundary).
    private func matchesPrefixInChunk(_ literal: PrefilterLiteral, at start: Int, in chunk: TextChunk) -> Bool {
        let available = min(literal.count, chunk.end - start)
        for index in 0..<available where !PrefilterLiteral.unit(literal.units[index], matches: chunk.bytes[start - chunk.offset + index]) {
            return false
        }
        return true
    }

    private func verify(_ literal: PrefilterLiteral, at start: Int) -> Bool {
        withBytes(in: start..<(start + literal.count)) { bytes in
            for index in 0..<literal.count where !PrefilterLiteral.unit(literal.units[index], matches: bytes[index]) {
                return false
            }
            return true
        }
    }

    /// Calls `body` with the bytes of a small range, read from the current chunk when it holds
    /// them and gathered from the text otherwise.
    func withBytes<R>(in wanted: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let bytes = chunkBytes, offset = chunkOffset
        if bytes.baseAddress != nil, offset <= wanted.lowerBound, wanted.upperBound <= offset + bytes.count {
            return body(UnsafeBufferPointer(rebasing: bytes[(wanted.lowerBound - offset)..<(wanted.upperBound - offset)]))
        }
        return text.bytes(in: wanted).withUnsafeBufferPointer(body)
    }
}
