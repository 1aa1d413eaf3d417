#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TrawlCatalog
import TrawlFiles
import TrawlStorage
import TrawlConcurrency

/// The items of a JSON Lines text (one object per line), parsed on another core while the caller
/// indexes those already parsed: indexing has to be in order on one core, so parsing (about a
/// third of a build) overlaps it instead of coming first. A sequence to iterate once.
struct CatalogLines: Sequence, Sendable {
    /// What parsing found besides the items, known once they have all been read.
    struct Summary: Sendable {
        /// The given fields, then those found in items but not given (weight 1), in order of
        /// first appearance.
        var fields: [CatalogField]
        var itemCount = 0
        /// Lines skipped: their number (from 1) and why.
        var problems: [(line: Int, reason: String)] = []
    }

    private let queue = OrderedQueue<[CatalogItem], Summary>()

    /// About how many lines there are, from those in the first megabyte (a sequence's
    /// `underestimatedCount` may not guess above the truth).
    let expectedCount: Int

    /// Starts parsing `bytes` in the background.
    init(parsing bytes: FileBytes, fields: [CatalogField]) {
        expectedCount = bytes.withBytes(Self.estimatedLineCount)
        let queue = queue
        DispatchQueue.global().async { Self.parse(bytes, fields: fields, into: queue) }
    }

    /// Waits for parsing to end.
    var summary: Summary {
        while queue.nextBatch(limit: .max) != nil {}
        return queue.result
    }

    private static func parse(_ bytes: FileBytes, fields: [CatalogField], into queue: OrderedQueue<[CatalogItem], Summary>) {
        var summary = Summary(fields: fields)
        var fieldNames = Set(fields.map(\.name))
        var batch: [CatalogItem] = []
        // Hands a batch to the indexer.
        func ship() {
            guard !batch.isEmpty else { return }
            queue.push(batch)
            batch = []
        }
        var lineNumber = 0
        // Line by line with memchr: splitting the whole text first held back the first batch for
        // a byte loop over all of it.
        forEachLine(of: bytes) { line in
            lineNumber += 1
            var line = line
            // A byte-order mark (as some Windows editors save UTF-8) opens the text, not its JSON.
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            guard let text = String(validating: line, as: UTF8.self) else {
                summary.problems.append((lineNumber, "not valid UTF-8"))
                return
            }
            do {
                let item = try CatalogItem(jsonLine: text)
                for name in item.fields.keys.sorted() where fieldNames.insert(name).inserted { summary.fields.append(CatalogField(name)) }
                batch.append(item)
                summary.itemCount += 1
                if batch.count == 1024 { ship() }
            } catch {
                summary.problems.append((lineNumber, "\(error)"))
            }
        }
        ship()
        queue.finish(summary)
    }

    /// About how many lines `bytes` hold, from the lines of their first megabyte.
    private static func estimatedLineCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let sample = Swift.min(bytes.count, 1 << 20)
        guard let base = bytes.baseAddress, sample > 0 else { return 0 }
        var lines = 1, start = 0
        while let found = memchr(base + start, 0x0A, sample - start) {
            start = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base + 1
            guard start < sample else { break }
            lines += 1
        }
        return lines * (bytes.count / sample)
    }

    /// Calls `body` with each line of `bytes` without its newline, the empty one after a final
    /// newline included.
    private static func forEachLine(of bytes: FileBytes, _ body: (UnsafeBufferPointer<UInt8>.SubSequence) -> Void) {
        bytes.withBytes { buffer in
            guard let base = buffer.baseAddress else { return body(buffer[...]) }
            var start = 0
            while true {
                let end = memchr(base + start, 0x0A, buffer.count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                body(buffer[start..<end])
                guard end < buffer.count else { return }
                start = end + 1
            }
        }
    }

    func makeIterator() -> Iterator { Iterator(queue: queue) }

    struct Iterator: IteratorProtocol {
        let queue: OrderedQueue<[CatalogItem], Summary>
        private var batch: [CatalogItem] = []
        private var index = 0

        init(queue: OrderedQueue<[CatalogItem], Summary>) { self.queue = queue }

        mutating func next() -> CatalogItem? {
            while index == batch.count {
                guard let next = queue.nextBatch(limit: 1)?.first else { return nil }
                batch = next
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }
    }
}
