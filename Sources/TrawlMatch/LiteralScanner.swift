import TrawlKernels

/// Finds occurrences of any of a small set of literals in chunked text, reading chunks in place.
///
/// It scans for the rarest byte of each literal (glibc `memchr` for one byte, an SSE2 kernel for up
/// to 16) and verifies the literal around each hit, so throughput is close to `memchr`'s when the
/// anchor bytes are rare. Literals may span chunk boundaries. Occurrences come in order of their
/// anchor positions, which for a single literal is the order of their starts.
struct LiteralScanner {
    let literals: [PrefilterLiteral]
    private let anchors: [Int]
    private let anchorSet: [UInt8]
    private let minAnchor: Int
    let text: any SearchableText
    let range: Range<Int>
    private var chunks: (any IteratorProtocol<TextChunk>)?
    private(set) var chunk: TextChunk?
    private var resume: Int

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
    }

    /// The next occurrence starting at or after `position`. Positions passed to successive calls
    /// must not decrease.
    /// - Throws: ``MatchError/cancelled`` when the task is cancelled during a long scan.
    mutating func next(from position: Int) throws(MatchError) -> Range<Int>? {
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

    /// The chunk holding `offset`, moving forward (or re-seeking when far ahead).
    private mutating func chunkContaining(_ offset: Int) -> TextChunk? {
        if let current = chunk, current.offset <= offset, offset < current.end { return current }
        if chunk == nil || offset < chunk!.offset || offset >= chunk!.end + 256 * 1024 {
            chunks = text.chunks(forwardIn: offset..<range.upperBound)
        }
        while true {
            guard let next = chunks?.next() else {
                chunk = nil
                return nil
            }
            if next.end > offset {
                chunk = next
                return next
            }
        }
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
        if let current = chunk, current.offset <= wanted.lowerBound, wanted.upperBound <= current.end {
            return body(UnsafeBufferPointer(rebasing: current.bytes[(wanted.lowerBound - current.offset)..<(wanted.upperBound - current.offset)]))
        }
        return text.bytes(in: wanted).withUnsafeBufferPointer(body)
    }
}
