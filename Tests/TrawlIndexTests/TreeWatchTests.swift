import Foundation
import SystemPackage
import Testing
@testable import TrawlIndex
import TrawlMatch
import TrawlFiles
import TrawlTestSupport
import TrawlNGram

/// The parts of a tree's watcher that need no file system events: its change log, its messages,
/// and the order in which a listing's paths are looked up.
@Suite struct TreeWatchTests {
    @Test func theChangeLogVouchesOnlyForStatesARefreshLeftAndKeepsWhatChangedSince() {
        var log = TreeChangeLog()
        #expect(log.changes(since: 1) == nil)
        #expect(log.needsRefresh)
        log.beginRefresh()
        log.record(Array("a".utf8))
        log.finishRefresh(identity: 1, trusted: true)
        // Changed while the refresh that made state 1 ran: the refresh may have read it before.
        #expect(log.changes(since: 1) == [Array("a".utf8)])
        #expect(!log.needsRefresh)
        log.record(Array("b".utf8))
        log.beginRefresh()
        log.record(Array("c".utf8))
        // A search that opened state 1 while the next refresh runs.
        #expect(log.changes(since: 1) == Set(["a", "b", "c"].map { Array($0.utf8) }))
        log.finishRefresh(identity: 2, trusted: true)
        #expect(log.changes(since: 2) == [Array("c".utf8)])
        // The state before stays answerable (a search may have opened it just before).
        #expect(log.changes(since: 1) == Set(["a", "b", "c"].map { Array($0.utf8) }))
        log.record(Array("d".utf8))
        #expect(log.changes(since: 1)?.contains(Array("d".utf8)) == true)
        // The same state confirmed again: the newer, shorter record.
        log.beginRefresh()
        log.finishRefresh(identity: 2, trusted: true)
        #expect(log.changes(since: 2) == [])
        #expect(log.changes(since: 1) != nil)
        // An untrusted refresh, and changes that cannot be placed, answer nothing.
        log.beginRefresh()
        log.finishRefresh(identity: 3, trusted: false)
        #expect(log.changes(since: 3) == nil)
        #expect(log.needsRefresh)
        #expect(log.changes(since: 2) == [])
        log.recordUnplaceable()
        #expect(log.changes(since: 2) == nil)
        log.beginRefresh()
        log.record(Array("e".utf8))
        log.abandonRefresh()
        #expect(!log.isRefreshing)
        #expect(log.changes(since: 3) == nil)
    }

    @Test func requestsAndRepliesReadBackWhatWasSent() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let identity = random.next()
            #expect(TreeWatchChannel.identity(inRequest: TreeWatchChannel.request(since: identity)) == identity)
            // Any bytes but NUL (paths need not be UTF-8).
            let paths = Set((0..<Int.random(in: 0...20, using: &random)).map { _ in
                (0..<Int.random(in: 1...30, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
            })
            #expect(TreeWatchChannel.changes(inReply: TreeWatchChannel.reply(paths)) == .some(.some(paths)))
        }
        #expect(TreeWatchChannel.changes(inReply: TreeWatchChannel.reply(nil as Set<[UInt8]>?)) == .some(nil))
        for bad in ["", "ok", "ok\na", "ok\n\0", "unknown", "trawl-watch 2 changes 12\n"] {
            #expect(TreeWatchChannel.changes(inReply: Array(bad.utf8)) == nil, "\(bad)")
            #expect(TreeWatchChannel.identity(inRequest: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    /// A random literal query: literals of any bytes, some letters caseless, nested in ANDs and ORs.
    func randomQuery(_ random: inout SeededGenerator, depth: Int = 0) -> LiteralQuery {
        switch depth < 3 ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...1, using: &random) {
        case 0: return .all
        case 1:
            let bytes = (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let caseless = bytes.map { (0x61...0x7A).contains($0) && Bool.random(using: &random) }
            return .literal(QueryLiteral(bytes: bytes, caseless: caseless)!)
        case 2: return .and((0..<Int.random(in: 0...4, using: &random)).map { _ in randomQuery(&random, depth: depth + 1) })
        default: return .or((0..<Int.random(in: 0...4, using: &random)).map { _ in randomQuery(&random, depth: depth + 1) })
        }
    }

    @Test func searchRequestsAndSelectionsReadBackWhatWasSent() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            let query = randomQuery(&random)
            let skips = Bool.random(using: &random)
            let parsed = TreeWatchChannel.search(inRequest: TreeWatchChannel.searchRequest(query, skipsBinaryFiles: skips))
            #expect(parsed?.query == query && parsed?.skipsBinaryFiles == skips, "\(query)")
            let paths = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                (0..<Int.random(in: 1...30, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
            }
            let recorded: [FileSkip?] = paths.map { _ in
                [nil, .invalidUTF8(offset: Int.random(in: 0...1 << 40, using: &random)), .utf16(bigEndian: Bool.random(using: &random))][Int.random(in: 0...2, using: &random)]
            }
            let selection = TreeWatchChannel.Selection(
                paths: paths, recordedSkips: recorded,
                filesRuledOut: Int.random(in: 0...100_000, using: &random), bytesRuledOut: Int.random(in: 0...1 << 40, using: &random))
            #expect(TreeWatchChannel.selection(inReply: TreeWatchChannel.reply(selection)) == .some(.some(selection)))
        }
        #expect(TreeWatchChannel.selection(inReply: TreeWatchChannel.unknownReply) == .some(nil))
        // Odd digits, an unknown flag, a literal longer than what follows, not hex, and "L" with one
        // byte "A" marked caseless (not a lowercase letter).
        for bad in ["trawl-watch 2 search b 4\n", "trawl-watch 2 search x 41\n", "trawl-watch 2 search b 4c05\n", "trawl-watch 2 search b zz\n",
                    "trawl-watch 2 search b 4c014101\n"] {
            #expect(TreeWatchChannel.search(inRequest: Array(bad.utf8)) == nil, "\(bad)")
        }
        for bad in ["ok\n", "ok\n1\n", "ok\n1 2\na", "ok\n-1 2\n"] {
            #expect(TreeWatchChannel.selection(inReply: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    /// A listing is in walk order, which `position(of:)` bisects: every file and folder of a
    /// built index is found where it is, and paths not listed are not found.
    @Test func everyListedPathIsFoundByBisection() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-walk-order-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        // Names whose bytewise order differs from their paths' (`-`, `.`, ` ` sort below `/`).
        let names = ["a", "a-b", "a.b", "a b", "ab", "a0", "A", "z", "é", "a_b"]
        for folder in names {
            for file in names {
                let url = root.appendingPathComponent(folder).appendingPathComponent(file + ".txt")
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("text \(folder) \(file)\n".utf8).write(to: url)
            }
            try Data("top \(folder)\n".utf8).write(to: root.appendingPathComponent(folder + ".txt"))
        }
        let report = try TreeIndexer(root: FilePath(root.path)).update()
        let listing = try #require(report.manifest?.listing)
        // The run says which stored state it left, as the stored index names it.
        let stored = try #require(try TreeIndexStore.open(root: FilePath(root.path)).get())
        #expect(report.identity == stored.identity)
        // A refresh too (it may write a new state: the files are too recent to trust).
        let again = try TreeIndexer(root: FilePath(root.path)).update()
        #expect(again.identity == (try TreeIndexStore.open(root: FilePath(root.path)).get())?.identity)
        #expect(listing.files.count == names.count * names.count + names.count)
        for (position, file) in listing.files.enumerated() {
            #expect(TreeListing.position(of: file.path, in: listing.files, \.path) == position, "\(String(decoding: file.path, as: UTF8.self))")
        }
        for (position, folder) in listing.directories.enumerated() {
            #expect(TreeListing.position(of: folder.path, in: listing.directories, \.path) == position)
        }
        for absent in ["a-b/a", "a/a-b", "b.txt", "a-b.txt/x", ""] {
            #expect(TreeListing.position(of: Array(absent.utf8), in: listing.files, \.path) == nil, "\(absent)")
        }
    }
}
