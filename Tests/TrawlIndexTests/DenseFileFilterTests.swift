import Foundation
import SystemPackage
import Testing
import TrawlFiles
import TrawlMatch
import TrawlTestSupport
@testable import TrawlIndex
import TrawlNGram

/// Four-byte-window filters: a dense file (base64 here) holds every trigram of most literals, so
/// the trigram index hands it to every search; its filter rules it out of searches for literals
/// it lacks, and never out of one it could match.
struct DenseFileFilterTests {
    static let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Lines of random base64, as in a certificate bundle.
    static func denseText(bytes: Int, _ random: inout SeededGenerator) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 65)
        while text.count < bytes {
            for _ in 0..<64 { text.append(base64[Int(random.next() % 64)]) }
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }

    static func folded(_ bytes: some Sequence<UInt8>) -> [UInt8] { bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } }

    static func trigrams(_ bytes: [UInt8]) -> Set<UInt32> {
        let folded = folded(bytes)
        guard folded.count >= 3 else { return [] }
        var keys = Set<UInt32>()
        for start in 0...(folded.count - 3) {
            let key: UInt32 = UInt32(folded[start]) << 16 | UInt32(folded[start + 1]) << 8 | UInt32(folded[start + 2])
            keys.insert(key)
        }
        return keys
    }

    /// Literals of base64 letters the text lacks (any case) though it has each of their trigrams:
    /// the ones the trigram index cannot rule out.
    static func absentLiterals(in text: [UInt8], count: Int, length: Int, _ random: inout SeededGenerator) -> [String] {
        let textTrigrams = trigrams(text), foldedText = folded(text)
        let windows = Set((0...(foldedText.count - length)).map { foldedText[$0..<($0 + length)] })
        var found: [String] = []
        for _ in 0..<(count * 50) where found.count < count {
            let literal = (0..<length).map { _ in base64[Int(random.next() % 62)] }
            guard trigrams(literal).isSubset(of: textTrigrams), !windows.contains(folded(literal)[...]) else { continue }
            found.append(String(decoding: literal, as: UTF8.self))
        }
        return found
    }

    /// Random queries over `text`: its own substrings (in any case, exact or caseless) that the
    /// filter must let through, and combinations of them with literals it lacks.
    @Test func aFilterNeverRulesOutATextThatSatisfiesTheQuery() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xF0_0D5))
        for round in 0..<40 {
            // Small alphabets make texts whose windows repeat; large ones make dense texts.
            let letters = 2 + Int(random.next() % 62)
            let alphabet: [UInt8] = Array(Self.base64.prefix(letters)) + Array(" \n_é".utf8)
            let length = 1 + Int(random.next() % 2000)
            var text: [UInt8] = []
            for _ in 0..<length { text.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            let filter = text.withUnsafeBufferPointer { FourGramFilter($0) }
            for _ in 0..<30 {
                var parts: [LiteralQuery] = []
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let length = Int(random.next() % 12)
                    let start = Int(random.next() % UInt64(Swift.max(1, text.count - length + 1)))
                    var bytes = Array(text[start..<Swift.min(text.count, start + length)])
                    if random.next() % 2 == 0 { bytes = bytes.map { random.next() % 2 == 0 ? Self.folded([$0])[0] : $0 } }
                    let caseless = random.next() % 2 == 0
                    parts.append(.literal(QueryLiteral(String(decoding: bytes, as: UTF8.self), ignoringASCIICase: caseless)))
                }
                let absent = LiteralQuery.literal(QueryLiteral("qQ+/\(random.next() % 1000)", ignoringASCIICase: false))
                let queries: [LiteralQuery] = [parts.count == 1 ? parts[0] : .and(parts), .or([absent] + parts), .all]
                for query in queries where query.isSatisfied(by: text) {
                    let passes = filter.maySatisfy(query)
                    #expect(passes, "round \(round): \(query) in \(text.count) bytes")
                }
            }
        }
    }

    /// On a dense text, literals whose trigrams are all there but which are not are nearly all
    /// ruled out (the filter's point); the false positives stay near the rate it is sized for.
    @Test func aDenseTextIsRuledOutOfSearchesForLiteralsItLacks() throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xBA5E_64))
        let text = Self.denseText(bytes: 120_000, &random)
        let filter = text.withUnsafeBufferPointer { FourGramFilter($0) }
        let absent = Self.absentLiterals(in: text, count: 200, length: 8, &random)
        try #require(absent.count >= 100, "only \(absent.count) literals with every trigram in the text")
        let passed = absent.filter { filter.maySatisfy(.literal(QueryLiteral($0, ignoringASCIICase: true))) }
        #expect(passed.count * 20 <= absent.count, "\(passed.count) of \(absent.count) absent literals passed: \(passed.prefix(5))")
        // Shorter than a window: nothing to rule out by.
        let short = filter.maySatisfy(.literal(QueryLiteral("zzz", ignoringASCIICase: false)))
        #expect(short)
    }

    /// A watcher hands a dense file over only for queries it may match: before and after the file
    /// changes, every file that satisfies a query is handed over, and the dense file is ruled out
    /// of searches for literals it lacks while it is unchanged.
    @Test(.enabled(if: watcherAvailable, "the watcher needs inotify (Linux)")) func aWatcherRulesOutDenseFilesOnlyOfSearchesTheyCannotMatch() throws {
        #if os(Linux)
        let root = try temporaryFolder("dense-filters")
        defer { try? FileManager.default.removeItem(at: root) }
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xDE25E))
        let dense = Self.denseText(bytes: 100_000, &random)
        let absent = Self.absentLiterals(in: dense, count: 30, length: 10, &random)
        try #require(absent.count >= 20)
        var contents: [String: [UInt8]] = ["dense.crt": dense, "Sources/small.swift": Array("let word = \"\(absent[0])\"\n".utf8),
                                           "Sources/other.swift": Array("struct Other {}\n".utf8)]
        // Listed as unchanged only when older than the index's racy window.
        func write(_ name: String, _ bytes: [UInt8], age: TimeInterval) throws {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
            contents[name] = bytes
        }
        for (name, bytes) in contents { try write(name, bytes, age: 3600) }
        _ = try TreeIndexer(root: FilePath(root.path)).update()

        let watcher = try TreeWatcher(root: FilePath(root.path))
        let refreshes = Counter()
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? watcher.run { event in if case .refreshed = event { refreshes.add() } }
            ended.signal()
        }
        defer {
            watcher.stop()
            ended.wait()
        }
        var folder = stat()
        try #require(stat(root.path, &folder) == 0)
        func handed(_ query: LiteralQuery) throws -> Set<String> {
            let deadline = Date(timeIntervalSinceNow: 60)
            while Date() < deadline {
                if case .answered(let selection) = TreeWatchChannel.selection(at: folder, for: query, skipsBinaryFiles: true) {
                    return Set(selection.paths.map { String(decoding: $0, as: UTF8.self) })
                }
                usleep(10_000)
            }
            throw WatcherDidNotAnswer()
        }
        // Each file that satisfies a query is handed over, whatever the filter says.
        func expectNoFileMissed(_ comment: String) throws {
            for index in 0..<40 {
                let text: String
                if index % 2 == 0 {
                    let start = Int(random.next() % UInt64(dense.count - 12))
                    text = String(decoding: dense[start..<(start + 4 + Int(random.next() % 8))], as: UTF8.self)
                } else {
                    text = absent[index % absent.count]
                }
                let query = LiteralQuery.literal(QueryLiteral(text, ignoringASCIICase: index % 3 == 0))
                let files = try handed(query)
                for (name, bytes) in contents where query.isSatisfied(by: bytes) {
                    #expect(files.contains(name), "\(comment): \(query) is in \(name) but not handed over: \(files)")
                }
            }
        }

        let lacking = LiteralQuery.literal(QueryLiteral(absent[1], ignoringASCIICase: true))
        #expect(try handed(lacking).isEmpty, "handed over for \(lacking)")
        #expect(try handed(.literal(QueryLiteral(absent[0], ignoringASCIICase: false))) == ["Sources/small.swift"])
        try expectNoFileMissed("unchanged")

        // Changed to hold the literal: handed over while changed, then (once refreshed and again
        // old enough to trust) learned again.
        // The refresh a watcher begins with is over before the change.
        var deadline = Date(timeIntervalSinceNow: 60)
        while refreshes.value == 0 && Date() < deadline { usleep(10_000) }
        let before = refreshes.value
        let changed = dense + Array("\(absent[1])\n".utf8)
        try write("dense.crt", changed, age: 1800)
        #expect(try handed(lacking).contains("dense.crt"))
        try expectNoFileMissed("changed")
        // Until the watcher's refresh has listed the new file (and the watcher says it is done).
        func listedSize() -> Int? {
            guard case .success(let stored?) = TreeIndexStore.open(root: FilePath(root.path), readingTables: false) else { return nil }
            return stored.listing.files.first { $0.path == Array("dense.crt".utf8) }?.signature.size
        }
        deadline = Date(timeIntervalSinceNow: 60)
        while listedSize() != changed.count && Date() < deadline { usleep(10_000) }
        while refreshes.value == before && Date() < deadline { usleep(10_000) }
        #expect(listedSize() == changed.count, "the refresh did not list the change")
        #expect(try handed(lacking) == ["dense.crt"])
        try expectNoFileMissed("refreshed")
        #endif
    }

    /// Each answer reads at least one file however large (so that every dense file is learned in
    /// time) and no more than its budget beyond; filters past the capacity are all forgotten and
    /// learned again.
    @Test func answersLearnWithinABudgetAndForgetPastTheCapacity() throws {
        let root = try temporaryFolder("dense-budget")
        defer { try? FileManager.default.removeItem(at: root) }
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xB0D6E7))
        var texts: [[UInt8]] = []
        for index in 0..<3 {
            let text = Self.denseText(bytes: 80_000, &random)
            texts.append(text)
            let url = root.appendingPathComponent("dense\(index).crt")
            try Data(text).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: url.path)
        }
        let listing = try #require(try TreeIndexer(root: FilePath(root.path)).update().manifest?.listing)
        let files = listing.files
        #expect(files.count == 3)
        // Absent from all three, though they hold its trigrams.
        let absent = Self.absentLiterals(in: Array(texts.joined()), count: 1, length: 10, &random)
        try #require(!absent.isEmpty)
        let query = LiteralQuery.literal(QueryLiteral(absent[0], ignoringASCIICase: true))
        let handed = files.indices.map { (position: $0, recordedSkip: FileSkip?.none) }

        // A budget smaller than one file: one file learned (and ruled out) per answer.
        var filters = DenseFileFilters(bytesReadPerAnswer: 1000)
        for answer in 1...3 {
            let narrowed = filters.narrow(handed, of: files, changed: [], query: query, root: FilePath(root.path))
            #expect(filters.learnedCount == answer)
            #expect(narrowed.files == answer && narrowed.handed.count == 3 - answer, "answer \(answer)")
        }
        // A file the watcher saw change is handed over, whatever its filter says.
        let changed = filters.narrow(handed, of: files, changed: [1], query: query, root: FilePath(root.path))
        #expect(changed.handed.map(\.position) == [1])

        // Room for one filter: past it, all are forgotten, so two are never held at once.
        var small = DenseFileFilters(capacity: 1)
        for _ in 0..<2 {
            let narrowed = small.narrow(handed, of: files, changed: [], query: query, root: FilePath(root.path))
            #expect(narrowed.files == 3 && narrowed.handed.isEmpty)
            #expect(small.learnedCount == 1)
        }
    }

    struct WatcherDidNotAnswer: Error {}

    final class Counter: @unchecked Sendable { // guarded by `lock`
        private let lock = NSLock()
        private var count = 0
        func add() {
            lock.lock()
            count += 1
            lock.unlock()
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }
}
