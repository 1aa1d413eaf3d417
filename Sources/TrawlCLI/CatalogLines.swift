import Dispatch
import TrawlCatalog
import TrawlFiles

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

    /// Starts parsing `bytes` in the background.
    init(parsing bytes: [UInt8], fields: [CatalogField]) {
        let queue = queue
        DispatchQueue.global().async { Self.parse(bytes, fields: fields, into: queue) }
    }

    /// Waits for parsing to end.
    var summary: Summary {
        while queue.nextBatch(limit: .max) != nil {}
        return queue.result
    }

    private static func parse(_ bytes: [UInt8], fields: [CatalogField], into queue: OrderedQueue<[CatalogItem], Summary>) {
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
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard let text = String(validating: line, as: UTF8.self) else {
                summary.problems.append((lineNumber, "not valid UTF-8"))
                continue
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
