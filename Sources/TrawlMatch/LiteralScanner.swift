import TrawlKernels

/// Finds occurrences of any of a small set of literals in chunked text, reading chunks in place.
///
/// A single literal of two or more bytes is found with a SIMD scan for its two rarest bytes at
/// their distance (memchr's "packed pair" idea), which leaves few false candidates even when each
/// byte alone is common, and verifies candidates in the same C call; starts whose bytes straddle a
/// chunk boundary are checked one by one. A set of literals is found by scanning for the rarest
/// byte of each (glibc `memchr` for one byte, an SSE2 kernel for up to 16) and verifying around
/// each hit. Occurrences come in order of their anchor positions, which for a single literal is
/// the order of their starts.
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
    /// A single literal of two or more bytes, laid out for the C kernel (nil otherwise).
    private let kernelLiteral: KernelLiteral?
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

    /// A literal as `trawl_find_literal` reads it, in storage that lives as long as the scanner:
    /// the kernel verifies candidates itself, so false ones never come back to Swift.
    private final class KernelLiteral {
        let length: Int
        let first: UInt16
        private let storage: UnsafeMutableBufferPointer<UInt8>
        let spec: UnsafeMutablePointer<trawl_literal>

        init(_ literal: PrefilterLiteral) {
            length = literal.count
            first = literal.units[0]
            storage = .allocate(capacity: 2 * length)
            var hasFolds = false
            for (index, unit) in literal.units.enumerated() {
                let caseless = unit & PrefilterLiteral.caselessFlag != 0
                storage[index] = UInt8(unit & 0xFF)
                storage[length + index] = caseless ? 0x20 : 0
                hasFolds = hasFolds || caseless
            }
            let one = literal.pairFirst, two = literal.pairSecond
            spec = .allocate(capacity: 1)
            spec.initialize(to: trawl_literal(
                pattern: UnsafePointer(storage.baseAddress!), folds: UnsafePointer(storage.baseAddress! + length),
                length: length, has_folds: hasFolds ? 1 : 0, offset1: one, offset2: two,
                fold1: storage[length + one], byte1: storage[one], fold2: storage[length + two], byte2: storage[two]))
        }

        deinit {
            spec.deallocate()
            storage.deallocate()
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
        kernelLiteral = literals.count == 1 && literals[0].count >= 2 ? KernelLiteral(literals[0]) : nil
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
        if let kernelLiteral { return try nextByKernel(kernelLiteral, from: position) }
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

    private func nextByKernel(_ literal: KernelLiteral, from position: Int) throws(MatchError) -> Range<Int>? {
        let length = literal.length
        var start = max(resume, position)
        var chunksScanned = 0
        while start + length <= range.upperBound {
            chunksScanned += 1
            if chunksScanned & 63 == 0 && Task.isCancelled { throw .cancelled }
            // The current chunk is read through its unsafe buffer (no reference counting per call:
            // a dense literal such as `self` comes back here once per match).
            if start < currentOffset || start >= currentOffset + currentBytes.count {
                guard chunkContaining(start) != nil else { break }
            }
            let base = currentBytes.baseAddress!, chunkStart = currentOffset, chunkEnd = currentOffset + currentBytes.count
            let local = start - chunkStart
            let fitting = currentBytes.count - length + 1 // starts whose literal lies in this chunk
            if local < fitting {
                let found = trawl_find_literal(base + local, fitting - local, literal.spec)
                if found < fitting - local {
                    let hit = chunkStart + local + found
                    resume = hit // inclusive: asking again from before it returns it again
                    return hit..<(hit + length)
                }
                start = chunkStart + fitting
            }
            // Starts whose literal runs into the next chunk: check the first unit, then gather.
            while start < chunkEnd && start + length <= range.upperBound {
                if PrefilterLiteral.unit(literal.first, matches: base[start - chunkStart]),
                   matchesPrefixInChunk(literals[0], at: start, chunkBytes: base, chunkStart: chunkStart, chunkEnd: chunkEnd),
                   verify(literals[0], at: start) {
                    resume = start
                    return start..<(start + length)
                }
                start += 1
            }
            if start < chunkEnd { break }
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

    /// Whether the part of `literal` at `start` that lies inside the chunk at `base` matches
    /// (checked before gathering bytes across the boundary).
    private func matchesPrefixInChunk(_ literal: PrefilterLiteral, at start: Int, chunkBytes base: UnsafePointer<UInt8>,
                                      chunkStart: Int, chunkEnd: Int) -> Bool {
        let available = min(literal.count, chunkEnd - start)
        for index in 0..<available where !PrefilterLiteral.unit(literal.units[index], matches: base[start - chunkStart + index]) {
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
