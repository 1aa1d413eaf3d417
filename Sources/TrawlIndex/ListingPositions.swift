import TrawlFiles
import TrawlNGram

/// A listing's files arranged so that a watcher chooses a search's files from the candidates
/// alone: the position of each indexed file by its number, the files without a number, and the
/// totals of the indexed ones. Made once per index the watcher opens; a question then costs
/// O(candidates + unindexed files + changed and gone files) instead of a pass over every listed
/// file.
struct ListingPositions: Sendable {
    /// The position of the listed file with each number; -1 where no listed file has it.
    private let positionOfNumber: [Int32]
    /// The positions of the files without a number (not indexed), ascending.
    private let unnumbered: [Int]
    /// How many listed files have a number, and their bytes.
    private let numberedCount: Int
    private let numberedBytes: Int

    /// The positions of `files`; `nil` when two of them have the same number (no index writes
    /// that, but a manifest that says so is answered with a pass over every file).
    init?(_ files: [TreeListing.File]) {
        let limit = files.lazy.compactMap { $0.number }.max().map { Int($0) + 1 } ?? 0
        guard files.count < Int32.max else { return nil }
        var positionOfNumber = [Int32](repeating: -1, count: limit)
        var unnumbered: [Int] = []
        var numberedCount = 0, numberedBytes = 0
        for (position, file) in files.enumerated() {
            if let number = file.number {
                guard positionOfNumber[Int(number)] < 0 else { return nil }
                positionOfNumber[Int(number)] = Int32(position)
                numberedCount += 1
                numberedBytes += file.signature.size
            } else {
                unnumbered.append(position)
            }
        }
        self.positionOfNumber = positionOfNumber
        self.unnumbered = unnumbered
        self.numberedCount = numberedCount
        self.numberedBytes = numberedBytes
    }

    /// ``TreeIndexNarrowing/select(_:root:candidates:watched:skipsBinaryFiles:excludes:)`` for a
    /// watcher's question (the changed files named, no excludes), with the same result: `files`
    /// must be the listing these positions were made from.
    func select(_ files: [TreeListing.File], candidates: PostingList, watched: (changed: Set<Int>, gone: Set<Int>), skipsBinaryFiles: Bool)
        -> (files: [(position: Int, recordedSkip: FileSkip?)], filesRuledOut: Int, bytesRuledOut: Int) {
        var handed: [(position: Int, recordedSkip: FileSkip?)] = []
        // Indexed files handed over: the candidates, and those changed since (the index no longer
        // speaks for them). The others are ruled out.
        var handedNumbered = 0, handedNumberedBytes = 0
        func handOver(_ position: Int) {
            handed.append((position, nil))
            handedNumbered += 1
            handedNumberedBytes += files[position].signature.size
        }
        for unit in candidates.units where Int(unit) < positionOfNumber.count && positionOfNumber[Int(unit)] >= 0 {
            let position = Int(positionOfNumber[Int(unit)])
            if !watched.gone.contains(position) { handOver(position) }
        }
        for position in watched.changed {
            guard let number = files[position].number, !candidates.contains(number), !watched.gone.contains(position) else { continue }
            handOver(position)
        }
        var goneNumbered = 0, goneNumberedBytes = 0
        for position in watched.gone where files[position].number != nil {
            goneNumbered += 1
            goneNumberedBytes += files[position].signature.size
        }
        var filesRuledOut = numberedCount - handedNumbered - goneNumbered
        let bytesRuledOut = numberedBytes - handedNumberedBytes - goneNumberedBytes
        // Files not indexed: what the listing says of them (binary, not UTF-8) holds while they
        // are unchanged; a binary one is then skipped, the others are reported unread.
        for position in unnumbered where !watched.gone.contains(position) {
            let file = files[position]
            guard file.recordDecides(skipsBinaryFiles: skipsBinaryFiles) && !watched.changed.contains(position) else {
                handed.append((position, nil))
                continue
            }
            if file.isSkippedWhenDecided { filesRuledOut += 1 } else { handed.append((position, file.skip)) }
        }
        handed.sort { $0.position < $1.position }
        return (handed, filesRuledOut, bytesRuledOut)
    }
}
