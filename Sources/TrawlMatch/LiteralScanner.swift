import TrawlKernels

/// Finds occurrences of any of a small set of literals in chunked text, reading chunks in place.
///
/// Literals of two or more bytes (up to eight of them) are found with a SIMD scan for the two
/// rarest bytes of each at their distance (memchr's "packed pair" idea), which leaves few false
/// candidates even when each byte alone is common; the C kernel tests every literal's pair in the
/// same pass over the text and verifies candidates itself. Starts whose bytes straddle a chunk
/// boundary are checked one by one. Other sets are found by scanning for the rarest byte of each
/// (glibc `memchr` for one byte, an SSE2 kernel for up to 16) and verifying around each hit.
/// Occurrences come in order of their starts (for the byte scan, of their anchor positions).
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
    /// Up to eight literals of two or more bytes, laid out for the C kernel (nil otherwise).
    private let kernelLiterals: KernelLiterals?

    /// The bytes of the chunk read last, without touching its owner's reference count (the
    /// scanner keeps the chunk, and so its storage, alive); during ``forEachOccurrence(from:_:)``,
    /// the chunk being walked (valid while the walk is in it).
    @exclusivity(unchecked) private(set) var chunkBytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The offset of ``chunkBytes`` in the text.
    @exclusivity(unchecked) private(set) var chunkOffset = 0

    /// Literals as `trawl_find_literal(s)` reads them, in storage that lives as long as the
    /// scanner: the kernel verifies candidates itself, so false ones never come back to Swift.
    private final class KernelLiterals {
        let lengths: [Int]
        let shortest: Int
        let longest: Int
        private let storage: [UnsafeMutableBufferPointer<UInt8>]
        let specs: UnsafeMutablePointer<trawl_literal>
        let count: Int
        /// Room for the bytes around a chunk boundary (see ``LiteralScanner/walkAll(_:from:_:)``).
        let seam: UnsafeMutablePointer<UInt8>

        init(_ literals: [PrefilterLiteral]) {
            lengths = literals.map { $0.count }
            count = literals.count
            shortest = lengths.min()!
            longest = lengths.max()!
            seam = .allocate(capacity: 2 * longest)
            specs = .allocate(capacity: literals.count)
            var storage: [UnsafeMutableBufferPointer<UInt8>] = []
            for (position, literal) in literals.enumerated() {
                let length = literal.count
                let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * length)
                var hasFolds = false
                for (index, unit) in literal.units.enumerated() {
                    let caseless = unit & PrefilterLiteral.caselessFlag != 0
                    bytes[index] = UInt8(unit & 0xFF)
                    bytes[length + index] = caseless ? 0x20 : 0
                    hasFolds = hasFolds || caseless
                }
                let one = literal.pairFirst, two = literal.pairSecond
                (specs + position).initialize(to: trawl_literal(
                    pattern: UnsafePointer(bytes.baseAddress!), folds: UnsafePointer(bytes.baseAddress! + length),
                    length: length, has_folds: hasFolds ? 1 : 0, offset1: one, offset2: two,
                    fold1: bytes[length + one], byte1: bytes[one], fold2: bytes[length + two], byte2: bytes[two]))
                storage.append(bytes)
            }
            self.storage = storage
        }

        /// The first start in `0..<starts` of one of the literals at `bytes`, and which literal.
        func find(in bytes: UnsafePointer<UInt8>, starts: Int) -> (start: Int, literal: Int) {
            if count == 1 { return (trawl_find_literal(bytes, starts, specs), 0) }
            var which = 0
            let start = trawl_find_literals(bytes, starts, specs, count, &which)
            return (start, which)
        }

        deinit {
            specs.deinitialize(count: count)
            specs.deallocate()
            seam.deallocate()
            storage.forEach { $0.deallocate() }
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
        anchors = literals.map { $0.anchorIndex }
        anchorSet = Array(Set(zip(literals, anchors).flatMap { PrefilterLiteral.bytes(of: $0.units[$1]) })).sorted()
        minAnchor = anchors.min() ?? 0
        self.text = text
        self.range = range
        resume = range.lowerBound
        kernelLiterals = LiteralScanner.findsEveryStart(of: literals) ? KernelLiterals(literals) : nil
    }

    /// Whether the scan finds every occurrence's start in order, each overlapping one included
    /// (the kernel's sets: one to eight literals of two or more bytes). Other sets are scanned by
    /// their rarest bytes, and occurrences come in the order of those.
    static func findsEveryStart(of literals: [PrefilterLiteral]) -> Bool {
        (1...Int(TRAWL_MAX_LITERALS)).contains(literals.count) && literals.allSatisfy { $0.count >= 2 }
    }

    /// The next occurrence starting at or after `position`. Positions passed to successive calls
    /// must not decrease.
    /// - Throws: ``MatchError/cancelled`` when the task is cancelled during a long scan.
    func next(from position: Int) throws(MatchError) -> Range<Int>? {
        if kernelLiterals != nil {
            // (Not retained at each call: the scanner holds it.)
            unowned(unsafe) let kernel = kernelLiterals!
            return try nextByKernel(kernel, from: position)
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

    private func nextByKernel(_ kernel: KernelLiterals, from position: Int) throws(MatchError) -> Range<Int>? {
        var start = max(resume, position)
        var chunksScanned = 0
        var walked = false
        while start + kernel.shortest <= range.upperBound {
            chunksScanned += 1
            if chunksScanned & 63 == 0 && Task.isCancelled { throw .cancelled }
            if chunksScanned > 2 && !walked {
                // Two chunks without an occurrence: a sparse stretch, walked without the cost of
                // holding each chunk. Occurrences are rare here, so re-seeking after one is cheap.
                walked = true
                switch try walk(kernel, from: start) {
                case .found(let occurrence):
                    resume = occurrence.lowerBound
                    forgetChunk()
                    _ = chunkContaining(occurrence.lowerBound) // held for a zero-copy regex window around the hit
                    return occurrence
                case .undecided(let from):
                    // Only starts near the range's end, where the longest literal does not fit.
                    start = from
                    forgetChunk()
                    continue
                }
            }
            // The current chunk is read through its unsafe buffer (no reference counting per call:
            // a dense literal such as `self` comes back here once per match).
            if start < chunkOffset || start >= chunkOffset + chunkBytes.count {
                guard chunkContaining(start) != nil else { break }
            }
            let base = chunkBytes.baseAddress!, chunkStart = chunkOffset, chunkEnd = chunkOffset + chunkBytes.count
            let local = start - chunkStart
            // Starts where the longest literal lies in this chunk and in the range.
            let fitting = min(chunkEnd, range.upperBound) - chunkStart - kernel.longest + 1
            if local < fitting {
                let found = kernel.find(in: base + local, starts: fitting - local)
                if found.start < fitting - local {
                    let hit = chunkStart + local + found.start
                    resume = hit // inclusive: asking again from before it returns it again
                    return hit..<(hit + kernel.lengths[found.literal])
                }
                start = chunkStart + fitting
            }
            // Starts whose literal may run into the next chunk: check the first units (from the
            // kernel's layout, without reference counting: this runs at every chunk's end), then
            // gather.
            while start < chunkEnd && start + kernel.shortest <= range.upperBound {
                let byte = base[start - chunkStart]
                for index in 0..<kernel.count {
                    let spec = kernel.specs[index]
                    guard byte | spec.folds[0] == spec.pattern[0], start + spec.length <= range.upperBound else { continue }
                    let literal = literals[index]
                    if matchesPrefixInChunk(literal, at: start, chunkBytes: base, chunkStart: chunkStart, chunkEnd: chunkEnd),
                       verify(literal, at: start) {
                        resume = start
                        return start..<(start + spec.length)
                    }
                }
                start += 1
            }
            if start < chunkEnd { break }
        }
        resume = range.upperBound
        return nil
    }

    /// Calls `body` with every occurrence starting at or after `position`, in order, none
    /// overlapping the one before (each search resumes at the previous occurrence's end), until
    /// `body` returns false: what repeated ``next(from:)`` calls return, found in one walk of the
    /// text's chunks instead of a seek per occurrence. The scanner is used up afterwards.
    /// - Throws: ``MatchError/cancelled`` when the task is cancelled during a long scan.
    func forEachOccurrence(from position: Int, _ body: (Range<Int>) -> Bool) throws(MatchError) {
        var floor = max(resume, position)
        defer { resume = range.upperBound }
        if let kernel = kernelLiterals, floor < range.upperBound {
            let (undecided, stopped) = try walkAll(kernel, from: floor, body)
            if stopped { return }
            // Every start before it is decided, and none is before the last occurrence's end.
            floor = undecided
            resume = undecided
        }
        // The starts a walk leaves (the last few, where only a shorter literal fits), or a set
        // the kernel does not take: one occurrence at a time.
        while let occurrence = try next(from: floor) {
            guard body(occurrence) else { return }
            floor = occurrence.upperBound
        }
    }

    /// ``forEachOccurrence(from:_:)`` for the kernel, with the text's own chunk walk: each chunk
    /// is scanned in place for the starts where the longest literal fits in it; the starts left
    /// near its end are decided once the next chunk's first bytes have joined them in the seam
    /// buffer (several chunks when they are tiny). Returns the first start it left undecided
    /// (near the range's end), and whether `body` stopped it.
    private func walkAll(_ kernel: KernelLiterals, from start: Int,
                         _ body: (Range<Int>) -> Bool) throws(MatchError) -> (undecided: Int, stopped: Bool) {
        let longest = kernel.longest, seam = kernel.seam
        var floor = start // no occurrence starts before it
        // Undecided starts are `seamStart..<offset` of the chunk being read, their bytes (and
        // any of that chunk's already taken) in the seam.
        var seamStart = start
        var seamCount = 0
        var chunksScanned = 0
        var cancelled = false, stopped = false
        text.forEachChunk(forwardIn: start..<range.upperBound) { offset, bytes in
            // The chunk being read serves ``withBytes`` while the walk is in it (a caller checking
            // the bytes around an occurrence).
            chunkBytes = bytes
            chunkOffset = offset
            chunksScanned += 1
            if chunksScanned & 255 == 0 && Task.isCancelled {
                cancelled = true
                return false
            }
            let base = bytes.baseAddress!
            if seamCount > 0 {
                let taken = min(bytes.count, longest - 1)
                (seam + seamCount).update(from: base, count: taken)
                seamCount += taken
                while true {
                    let decidable = min(offset - seamStart, seamCount - longest + 1)
                    guard decidable > 0 else { break }
                    let hit = kernel.find(in: seam, starts: decidable)
                    // Past the hit's end (or past every start decided), the seam starts anew.
                    let dropped = hit.start < decidable ? min(hit.start + kernel.lengths[hit.literal], seamCount) : decidable
                    if hit.start < decidable {
                        let found = seamStart + hit.start
                        floor = found + kernel.lengths[hit.literal]
                        if !body(found..<floor) {
                            stopped = true
                            return false
                        }
                    }
                    seamStart += dropped
                    seamCount -= dropped
                    seam.update(from: seam + dropped, count: seamCount)
                    if hit.start >= decidable { break }
                }
                // A tiny chunk leaves starts undecided: all its bytes are in the seam now.
                if seamStart < offset { return true }
                seamCount = 0
            }
            // This chunk's starts where the longest literal fits in it, from the last end on.
            let fitting = max(bytes.count - longest + 1, 0)
            var local = max(floor - offset, 0)
            while local < fitting {
                let hit = kernel.find(in: base + local, starts: fitting - local)
                guard hit.start < fitting - local else { break }
                let found = offset + local + hit.start
                floor = found + kernel.lengths[hit.literal]
                if !body(found..<floor) {
                    stopped = true
                    return false
                }
                local = floor - offset
            }
            // The starts left at the chunk's end wait in the seam for the next chunk's bytes.
            seamStart = max(offset + fitting, floor)
            seamCount = max(offset + bytes.count - seamStart, 0)
            seam.update(from: base + (seamStart - offset), count: seamCount)
            return true
        }
        // The walk lent its chunks to ``withBytes``: back to the chunk this scanner holds (the
        // walked ones are valid only during the walk).
        chunkBytes = currentChunk?.bytes ?? UnsafeBufferPointer(start: nil, count: 0)
        chunkOffset = currentChunk?.offset ?? 0
        if cancelled { throw .cancelled }
        return (seamCount > 0 ? seamStart : range.upperBound, stopped)
    }

    private enum WalkResult {
        case found(Range<Int>)
        /// No occurrence starting before this offset; from it on, the longest literal would run
        /// past the range's end.
        case undecided(from: Int)
    }

    /// The first occurrence at or after `start`, found with the text's own chunk walk (see
    /// ``walkAll(_:from:_:)``).
    private func walk(_ kernel: KernelLiterals, from start: Int) throws(MatchError) -> WalkResult {
        var found: Range<Int>?
        let (undecided, _) = try walkAll(kernel, from: start) { occurrence in
            found = occurrence
            return false
        }
        return found.map { .found($0) } ?? .undecided(from: undecided)
    }

    /// Lets go of the current chunk, and of its bytes with it.
    private func forgetChunk() {
        currentChunk = nil
        chunkBytes = UnsafeBufferPointer(start: nil, count: 0)
        chunkOffset = 0
    }

    /// The chunk holding `offset`, moving forward (or re-seeking when far ahead).
    private func chunkContaining(_ offset: Int) -> TextChunk? {
        if let current = currentChunk, current.offset <= offset, offset < current.end { return current }
        if currentChunk == nil || offset < currentChunk!.offset || offset >= currentChunk!.end + 256 * 1024 {
            chunks = text.chunks(forwardIn: offset..<range.upperBound)
        }
        while true {
            guard let next = chunks?.next() else {
                forgetChunk()
                return nil
            }
            if next.end > offset {
                currentChunk = next
                chunkBytes = next.bytes
                chunkOffset = next.offset
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
