import Dispatch
import Synchronization
import TrawlConcurrency
import TrawlStorage

/// The items of a stored catalog (``CatalogFormat`` version 4), read from their blocks when first
/// asked for: a search shows a few dozen items, and opening a catalog does not decode the others.
///
/// The file stays mapped (or read) while any copy of the catalog holds this; each block is
/// checked against its own checksum when decoded and kept decoded. A block that does not decode
/// (a damaged or hostile file) reads as items with no id, fields or attributes: the search that
/// shows it goes on.
final class StoredItems: Sendable {
    /// How many internal numbers it covers (live or not).
    let count: Int
    private let file: FileBytes
    /// Where the lexicon and the blocks lie in the file.
    private let lexiconRange: Range<Int>
    private let blockRanges: [Range<Int>]
    private let blockChecksums: [UInt64]
    /// By internal number: the item's place among the stored items (blocks hold the live items
    /// in number order), or `.max` for a retired number.
    private let places: [UInt32]
    private let tables: CatalogBlock.Tables
    private let decoded = Mutex<Decoded>(Decoded())

    private struct Decoded {
        var lexicon: CatalogLexicon.Decoding?
        /// The items decoded so far, by internal number.
        var items: [Int: CatalogItem] = [:]
        /// What was found damaged first (the lexicon or a block), if anything.
        var damage: StoredFormatError?
    }

    /// The items of `file` whose lexicon lies at `lexiconRange` and whose blocks lie at
    /// `blockRanges`, each with its checksum, for the internal numbers that `isLive` marks.
    init(file: FileBytes, lexiconRange: Range<Int>, blockRanges: [Range<Int>], blockChecksums: [UInt64], isLive: [Bool],
         tables: CatalogBlock.Tables) throws(StoredFormatError) {
        var places = [UInt32](repeating: .max, count: isLive.count)
        var place: UInt32 = 0
        for number in isLive.indices where isLive[number] {
            places[number] = place
            place += 1
        }
        guard blockRanges.count == (Int(place) + CatalogBlock.itemsPerBlock - 1) / CatalogBlock.itemsPerBlock,
              blockChecksums.count == blockRanges.count else { throw .corrupt("item blocks") }
        count = isLive.count
        self.file = file
        self.lexiconRange = lexiconRange
        self.blockRanges = blockRanges
        self.blockChecksums = blockChecksums
        self.places = places
        self.tables = tables
    }

    /// The item numbered `number` (live: the caller checks), decoded from its block when first
    /// asked for.
    func item(_ number: Int) -> CatalogItem {
        prepare([number])
        return decoded.withLock { $0.items[number] } ?? CatalogItem(id: "")
    }

    /// Decodes the items numbered `numbers` that are not yet, each block once (a search shows a
    /// page of items, a few per block).
    func prepare(_ numbers: [Int]) {
        decoded.withLock { decoded in
            var wanted: [Int: [Int]] = [:]
            for number in numbers where decoded.items[number] == nil && places[number] != .max {
                wanted[Int(places[number]) / CatalogBlock.itemsPerBlock, default: []].append(number)
            }
            guard !wanted.isEmpty else { return }
            if decoded.lexicon == nil {
                let lexiconBytes = file.withBytes { Array($0[lexiconRange]) }
                var reader = StoredFormat.Reader(bytes: lexiconBytes, end: lexiconBytes.count)
                do {
                    decoded.lexicon = try CatalogLexicon.decode(&reader, numbering: false)
                } catch {
                    decoded.lexicon = CatalogLexicon.Decoding.empty
                    decoded.damage = decoded.damage ?? .corrupt("lexicon: \(error)")
                }
            }
            // Many blocks (every item, to store the catalog again) are decoded on all cores.
            let blocks = Array(wanted), lexicon = decoded.lexicon!
            let made = SlotArray<[CatalogItem]>(count: blocks.count)
            DispatchQueue.concurrentPerform(iterations: blocks.count) { index in
                let (block, numbers) = blocks[index]
                var wanted = [Bool](repeating: false, count: CatalogBlock.itemsPerBlock)
                for number in numbers { wanted[Int(self.places[number]) % CatalogBlock.itemsPerBlock] = true }
                made.set(index, self.decode(block: block, wanted: wanted, lexicon: lexicon))
            }
            decoded.items.reserveCapacity(decoded.items.count + numbers.count)
            for (index, (_, numbers)) in blocks.enumerated() {
                let items = made.take(index)!
                if items.isEmpty, decoded.damage == nil { decoded.damage = .corrupt("item block \(blocks[index].key): checksum or contents") }
                for number in numbers {
                    let place = Int(places[number]) % CatalogBlock.itemsPerBlock
                    decoded.items[number] = place < items.count ? items[place] : CatalogItem(id: "")
                }
            }
        }
    }

    /// What was found damaged first among the items read so far, if anything.
    var damage: StoredFormatError? { decoded.withLock { $0.damage } }

    /// The items of block `block` (only those `wanted`, by place, whole), or none when it does not
    /// decode.
    private func decode(block: Int, wanted: [Bool], lexicon: CatalogLexicon.Decoding) -> [CatalogItem] {
        let range = blockRanges[block]
        let bytes = file.withBytes { Array($0[range]) }
        guard StoredFormat.checksum(bytes[...]) == blockChecksums[block], !file.changedWhileMapped else { return [] }
        var reader = StoredFormat.Reader(bytes: bytes, end: bytes.count)
        guard let items = try? CatalogBlock.decode(&reader, tables: tables, lexicon: lexicon, wanted: wanted).items, reader.position == bytes.count else { return [] }
        return items
    }
}
