import SystemPackage
import TrawlFiles
import TrawlMatch
import TrawlNGram

/// What a watcher knows of the large files its answers hand over: for each that is dense (holds so
/// many distinct trigrams that the index rules it out of almost no search), a ``FourGramFilter``
/// of its text, which then rules it out of searches for literals it lacks.
///
/// The watcher makes a filter the first time a file is handed over, from the file as the listing
/// records it (its signature before and after the read is the listing's), and trusts it while
/// the file is unchanged — the same trust it gives the index's postings. Nothing is stored: a
/// watcher's life is the filter's, and a search without a watcher reads such files as before.
struct DenseFileFilters {
    /// Files smaller than this are read by the search as cheaply as the filter would be consulted.
    static let smallestFile = 64 << 10
    /// Distinct trigrams from which a file counts as dense: source files of any size stay well
    /// below (the largest of the Swift corpus's 27,860 files, 9.7 MB of C, has 45k, but most have
    /// under 12k); base64 and certificates reach 49k in 200 KB.
    static let denseTrigrams = 16_384
    /// The most bytes one answer reads to learn about files (one file at least, however large,
    /// so that every file is learned in time): a question is answered in a few milliseconds at
    /// worst, and the files left are learned by the next questions.
    let bytesReadPerAnswer: Int
    /// The most bytes the filters may hold: once they hold more, all are forgotten and learned
    /// again as answers need them (filters of files since deleted or renamed go with them).
    let capacity: Int

    /// Each large file learned, by path relative to the root: the signature it had and its
    /// filter, `nil` when it is not dense.
    private var learned: [[UInt8]: (signature: FileSignature, filter: FourGramFilter?)] = [:]
    private var filterBytes = 0

    init(bytesReadPerAnswer: Int = 4 << 20, capacity: Int = 64 << 20) {
        self.bytesReadPerAnswer = bytesReadPerAnswer
        self.capacity = capacity
    }

    /// How many files are learned (in tests).
    var learnedCount: Int { learned.count }

    /// `handed` (positions in `files`, the listing the index was built from) without the dense
    /// files that cannot hold a match of `query`, and the count and bytes of those left out.
    /// Files changed since the index (`changed`) and files the listing records a skip for are
    /// kept as they are.
    mutating func narrow(_ handed: [(position: Int, recordedSkip: FileSkip?)], of files: [TreeListing.File], changed: Set<Int>,
                         query: LiteralQuery, root: FilePath) -> (handed: [(position: Int, recordedSkip: FileSkip?)], files: Int, bytes: Int) {
        guard query.literals.contains(where: { $0.bytes.count >= 4 }) else { return (handed, 0, 0) }
        var kept: [(position: Int, recordedSkip: FileSkip?)] = []
        kept.reserveCapacity(handed.count)
        var ruledOut = 0, bytesRuledOut = 0, budget = bytesReadPerAnswer
        for entry in handed {
            let file = files[entry.position]
            guard entry.recordedSkip == nil, file.number != nil, file.signature.size >= DenseFileFilters.smallestFile,
                  file.signature.modified != FileSignature.racy, !changed.contains(entry.position),
                  let filter = filter(of: file, root: root, budget: &budget), !filter.maySatisfy(query) else {
                kept.append(entry)
                continue
            }
            ruledOut += 1
            bytesRuledOut += file.signature.size
        }
        return (kept, ruledOut, bytesRuledOut)
    }

    /// The filter of a listed file, learned now when it is not known and `budget` allows reading
    /// it; `nil` when it is not dense or not learned.
    private mutating func filter(of file: TreeListing.File, root: FilePath, budget: inout Int) -> FourGramFilter? {
        if let known = learned[file.path], known.signature == file.signature { return known.filter }
        guard budget >= file.signature.size || budget == bytesReadPerAnswer else { return nil }
        budget = Swift.max(0, budget - file.signature.size)
        if filterBytes >= capacity {
            learned.removeAll()
            filterBytes = 0
        }
        let path = root.appending(relative: file.path)
        // Learned only from the file the listing records: unchanged before and after the read.
        guard file.signature.matches(FileSignature.of(path)),
              case .success(let content) = FileContent.read(WalkedFile(path: path, isExplicit: false, anchor: FolderAnchor(root)),
                                                            for: .search(allowsMapping: true, allowsStreams: false)) else { return nil }
        let filter = content.text.withBytes { bytes in
            Trigram.distinctKeys(in: bytes).count >= DenseFileFilters.denseTrigrams ? FourGramFilter(bytes) : nil
        }
        guard !content.changedWhileMapped, file.signature.matches(FileSignature.of(path)) else { return nil }
        if let previous = learned[file.path]?.filter { filterBytes -= previous.byteCount }
        learned[file.path] = (file.signature, filter)
        filterBytes += filter?.byteCount ?? 0
        return filter
    }
}
