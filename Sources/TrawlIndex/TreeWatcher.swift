#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import Dispatch
import Synchronization
import SystemPackage
import TrawlFiles
import TrawlMatch
import TrawlNGram
import TrawlConcurrency

/// Keeps a tree's index fresh and tells searches what changed since, so that a search with an
/// index need not `stat` every file it rules out (tens of thousands of calls, most of a search for
/// a rare word; git's fsmonitor and watchman answer the same need).
///
/// It watches every folder of the index's listing (inotify), records the paths its events name in
/// a ``TreeChangeLog``, and refreshes the index once changes settle. A search asks over
/// ``TreeWatchChannel``; before answering, the watcher creates a "cookie" file in `.trawl/` and
/// waits for its event: one inotify queue keeps its events in order, so every change made before
/// the question has been recorded by then. What it cannot place (lost events, a folder moved)
/// spoils its records until the next refresh, and searches check the files themselves meanwhile.
///
/// A refresh is trusted only when every folder it lists was watched before it began; otherwise
/// (the first build, a folder added) another refresh follows at once. Linux only (inotify);
/// changes it cannot see — writes through another mount, a network file system's remote writers
/// — are out of its reach, as they are of every inotify watcher.
public final class TreeWatcher: Sendable {
    /// What the watcher did, for the command to show.
    public enum Event: Sendable {
        /// A refresh finished: its report, how long it took, and whether searches can rely on it.
        case refreshed(TreeIndexer.Report, nanoseconds: UInt64, trusted: Bool)
        /// A refresh failed (it is tried again after the next change).
        case refreshFailed(String)
        /// Events were lost (the queue overflowed): searches check files until the next refresh.
        case overflowed
    }

    /// Why the watcher cannot run.
    public enum Error: Swift.Error, CustomStringConvertible {
        case unsupported
        case notAFolder(String)
        case alreadyWatched(String)
        case watchLimit(String)
        case system(String, Int32)
        /// The first refresh failed: there is no index to keep fresh.
        case indexUnwritable(String)
        /// The root's path names another folder now (it was moved, or replaced).
        case rootReplaced(String)

        /// Why the watcher stopped or could not start, for a message.
        public var description: String {
            switch self {
            case .unsupported: "watching a tree needs inotify (Linux)"
            case .notAFolder(let path): "\(path): not a folder"
            case .alreadyWatched(let path): "\(path): another trawl already watches this tree"
            case .watchLimit(let path): "\(path): the system's inotify watch limit is reached (raise fs.inotify.max_user_watches)"
            case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
            case .indexUnwritable(let message): message
            case .rootReplaced(let path): "\(path): the folder watched is no longer there; watching stops"
            }
        }
    }

    /// The tree's root, links resolved once: a link later pointed elsewhere does not move the
    /// watch to another tree.
    let root: FilePath
    /// The root folder's device and inode (the address searches find it by): a watcher whose
    /// root path now names another folder answers no more.
    private let folder: (device: UInt64, inode: UInt64)
    private let listener: Int32
    private let notifications: Int32
    /// Written to stop the loop (`stop()`), and by a refresh when it ends.
    private let stopPipe: (read: Int32, write: Int32)
    private let refreshPipe: (read: Int32, write: Int32)
    private let refreshResult = Mutex<Result<TreeIndexer.Report, IndexFolderError>?>(nil)

    /// Changes settle when no event came for this long (or this long after the first of a burst).
    static let quietNanoseconds: UInt64 = 250_000_000
    static let longestWaitNanoseconds: UInt64 = 2_000_000_000
    /// How often an unseen path that stays stale asks for a refresh.
    static let staleRefreshNanoseconds: UInt64 = 5_000_000_000
    #if os(Linux)
    static let folderMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
    static let indexFolderMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    #endif
    static let cookiePrefix = Array("cookie-".utf8)

    /// How long events wait before they are read (0 but in tests).
    let eventDelayNanoseconds: UInt64

    /// Claims the tree at `root` (one watcher per tree) and opens the watch; `run()` does the rest.
    /// `eventDelayMilliseconds` is for tests: each batch of events waits that long before it is
    /// read, so that a search's question arrives before the events of the changes made just
    /// before it (which the cookie must still make count).
    public init(root: FilePath, eventDelayMilliseconds: Int = 0) throws(Error) {
        eventDelayNanoseconds = UInt64(max(0, eventDelayMilliseconds)) * 1_000_000
        #if os(Linux)
        guard case .success(let status) = root.status(), status.st_mode & S_IFMT == S_IFDIR, let resolved = root.resolved() else {
            throw .notAFolder(root.string)
        }
        self.root = resolved
        folder = (UInt64(status.st_dev), UInt64(status.st_ino))
        let name = TreeWatchChannel.address(of: status)
        let listener = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { trawl_listen_abstract($0.baseAddress, $0.count) }
        }
        guard listener >= 0 else {
            throw errno == EADDRINUSE ? .alreadyWatched(root.string) : .system("listening for searches", errno)
        }
        let notifications = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard notifications >= 0 else {
            let code = errno
            close(listener)
            throw .system("inotify", code)
        }
        var stopEnds: [Int32] = [-1, -1], refreshEnds: [Int32] = [-1, -1]
        guard pipe(&stopEnds) == 0, pipe(&refreshEnds) == 0 else {
            let code = errno
            for descriptor in [listener, notifications] + stopEnds + refreshEnds where descriptor >= 0 { close(descriptor) }
            throw .system("pipe", code)
        }
        for end in stopEnds + refreshEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        self.listener = listener
        self.notifications = notifications
        stopPipe = (stopEnds[0], stopEnds[1])
        refreshPipe = (refreshEnds[0], refreshEnds[1])
        #else
        throw .unsupported
        #endif
    }

    deinit {
        for descriptor in [listener, notifications, stopPipe.read, stopPipe.write, refreshPipe.read, refreshPipe.write] { close(descriptor) }
    }

    /// Whether the root path still names the folder watched.
    var rootIsTheSame: Bool {
        guard case .success(let status) = root.status() else { return false }
        return (UInt64(status.st_dev), UInt64(status.st_ino)) == folder
    }

    /// Ends `run()` soon (from any thread, or a signal's handler queue).
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    /// Watches until `stop()`; `report` hears of each refresh (on this thread). A refresh runs at
    /// once (it builds the index when there is none), then after each change settles.
    public func run(report: (Event) -> Void) throws(Error) {
        #if os(Linux)
        var loop = Loop(watcher: self)
        defer { loop.finish() }
        try loop.run(report: report)
        #else
        throw .unsupported
        #endif
    }

    #if os(Linux)
    /// The loop's state, on the thread that runs it.
    private struct Loop {
        let watcher: TreeWatcher
        var log = TreeChangeLog()
        /// Each watched folder (relative to the root), and when it was first watched (a count of
        /// watches added: a refresh that began before is not protected by it).
        var folders: [Int32: (path: [UInt8], since: Int)] = [:]
        var watchesAdded = 0
        /// Folders moved since they were watched: their events can no longer be placed.
        var moved = Set<Int32>()
        var indexFolder: Int32?
        /// The index folder, opened as the refresh wrote it: cookies are made in it.
        var cookieFolder: IndexFolder?
        /// When the refresh under way began (in watches added).
        var refreshBegan = 0
        var refreshStart: UInt64 = 0
        /// When a refresh is due: changes came after the last one began.
        var firstChange: UInt64?
        var lastChange: UInt64 = 0
        var indexReplaced = false
        /// When events seen waiting are to be read (in tests, with a delay).
        var eventsDue: UInt64?
        var cookies = 0
        /// Searches that asked, by descriptor: what they sent so far, or (once asked) their cookie.
        var asking: [Int32: (request: [UInt8], deadline: UInt64)] = [:]
        var waiting: [(descriptor: Int32, request: Request, cookie: Int, deadline: UInt64)] = []
        /// The index in the state the log vouches for last, open (tables read) to answer queries.
        var opened: StoredTreeIndex?
        /// `opened`'s listing arranged to choose a query's files from its candidates.
        var positions: ListingPositions?
        /// Filters of the dense files answers handed over, to rule them out of later answers.
        var denseFiles = DenseFileFilters()
        /// The paths of `opened`'s listing that a question `stat`s (``TreeListing/watchedUnseen(root:)``).
        var unseen: [Int] = []
        /// What the unseen paths were when last found changed, and when: a refresh is asked for
        /// once per change, or every few seconds while one stays stale (recorded as too recent
        /// to trust, or dated in the future), not at every question.
        var staleUnseen: (signatures: [FileSignature?], at: UInt64)?

        /// What a search asked.
        enum Request {
            /// The paths changed since an index state.
            case changes(since: UInt64)
            /// The files to search for a query.
            case selection(LiteralQuery, skipsBinaryFiles: Bool)
        }

        init(watcher: TreeWatcher) { self.watcher = watcher }

        mutating func run(report: (Event) -> Void) throws(Error) {
            // The folders of the index there is, watched before the first refresh begins (which
            // can then be trusted).
            if case .success(let stored?) = TreeIndexStore.open(root: watcher.root, readingTables: false) {
                for folder in stored.listing.directories { _ = try watch(folder.path) }
            }
            // Cookies a watcher killed on the spot left behind.
            if case .success(let folder?) = IndexFolder.open(root: watcher.root, creating: false) {
                for name in folder.names() where name.utf8.starts(with: TreeWatcher.cookiePrefix) { folder.remove(name) }
            }
            try beginRefresh()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                // Events held back (in tests) are not polled for until they are due.
                var descriptors = [pollfd(fd: watcher.stopPipe.read, events: Int16(POLLIN), revents: 0),
                                   pollfd(fd: eventsDue == nil ? watcher.notifications : -1, events: Int16(POLLIN), revents: 0),
                                   pollfd(fd: watcher.refreshPipe.read, events: Int16(POLLIN), revents: 0),
                                   pollfd(fd: watcher.listener, events: Int16(POLLIN), revents: 0)]
                for descriptor in asking.keys { descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
                let ready = poll(&descriptors, nfds_t(descriptors.count), timeout())
                if ready < 0 && errno != EINTR { throw .system("poll", errno) }
                if descriptors[0].revents != 0 { return }
                if descriptors[1].revents != 0 {
                    if watcher.eventDelayNanoseconds == 0 { try readEvents(into: &buffer, report: report) } else { eventsDue = monotonicNanoseconds() + watcher.eventDelayNanoseconds }
                }
                if let due = eventsDue, monotonicNanoseconds() >= due {
                    eventsDue = nil
                    try readEvents(into: &buffer, report: report)
                }
                if descriptors[2].revents != 0 { try finishRefresh(report: report) }
                if descriptors[3].revents != 0 { accept() }
                for entry in descriptors.dropFirst(4) where entry.revents != 0 { read(from: entry.fd) }
                dropLate()
                if !log.isRefreshing, let first = firstChange {
                    let now = monotonicNanoseconds()
                    if now >= lastChange + TreeWatcher.quietNanoseconds || now >= first + TreeWatcher.longestWaitNanoseconds { try beginRefresh() }
                }
            }
        }

        /// How long poll may wait: until a refresh is due, or a search's deadline.
        func timeout() -> Int32 {
            var until: UInt64?
            if !log.isRefreshing, let first = firstChange {
                until = min(lastChange + TreeWatcher.quietNanoseconds, first + TreeWatcher.longestWaitNanoseconds)
            }
            for deadline in asking.values.map(\.deadline) + waiting.map(\.deadline) + (eventsDue.map { [$0] } ?? []) { until = min(until ?? deadline, deadline) }
            guard let until else { return -1 }
            let now = monotonicNanoseconds()
            return until <= now ? 0 : Int32(min(10_000, (until - now) / 1_000_000 + 1))
        }

        /// Watches the folder at `relative`; whether it is watched.
        mutating func watch(_ relative: [UInt8]) throws(Error) -> Int32? {
            let path = watcher.root.appending(relative: relative)
            let descriptor = path.withPlatformString { inotify_add_watch(watcher.notifications, $0, TreeWatcher.folderMask) }
            guard descriptor >= 0 else {
                if errno == ENOSPC { throw .watchLimit(watcher.root.string) }
                return nil
            }
            if let known = folders[descriptor], known.path == relative, !moved.contains(descriptor) { return descriptor }
            folders[descriptor] = (relative, watchesAdded)
            moved.remove(descriptor)
            watchesAdded += 1
            return descriptor
        }

        mutating func watchIndexFolder() {
            // Watched and written through the folder the refresh wrote in (a real folder, opened
            // without following a link): a `.trawl` swapped for a link later is not followed.
            guard case .success(let opened?) = IndexFolder.open(root: watcher.root, creating: false) else { return }
            let path = "/proc/self/fd/\(opened.descriptor)"
            let descriptor = inotify_add_watch(watcher.notifications, path, TreeWatcher.indexFolderMask)
            indexFolder = descriptor >= 0 ? descriptor : nil
            cookieFolder = descriptor >= 0 ? opened : nil
        }

        mutating func beginRefresh() throws(Error) {
            guard watcher.rootIsTheSame else { throw .rootReplaced(watcher.root.string) }
            firstChange = nil
            indexReplaced = false
            log.beginRefresh()
            refreshBegan = watchesAdded
            refreshStart = monotonicNanoseconds()
            let watcher = self.watcher
            DispatchQueue.global().async {
                let result: Result<TreeIndexer.Report, IndexFolderError>
                do throws(IndexFolderError) { result = .success(try TreeIndexer(root: watcher.root).update()) } catch { result = .failure(error) }
                watcher.refreshResult.withLock { $0 = result }
                var byte: UInt8 = 1
                _ = write(watcher.refreshPipe.write, &byte, 1)
            }
        }

        mutating func finishRefresh(report: (Event) -> Void) throws(Error) {
            var byte: UInt8 = 0
            while PlatformCalls.read(watcher.refreshPipe.read, &byte, 1) == 1 {}
            guard let result = watcher.refreshResult.withLock({ value in defer { value = nil }; return value }) else { return }
            let elapsed = monotonicNanoseconds() - refreshStart
            switch result {
            case .failure(let error):
                try fail("\(error)", report: report)
            case .success(let outcome):
                guard let manifest = outcome.manifest, let identity = outcome.identity else {
                    try fail("\(TreeIndexStore.manifestPath(watcher.root)): the refresh left no index", report: report)
                    return
                }
                if indexFolder == nil { watchIndexFolder() }
                // Every listed folder watched; one watched only now (or moved, or gone) leaves
                // the refresh's reads unprotected.
                var trusted = indexFolder != nil
                var listed = Set<Int32>()
                for folder in manifest.listing.directories {
                    guard let descriptor = try watch(folder.path) else {
                        trusted = false
                        continue
                    }
                    listed.insert(descriptor)
                    if folders[descriptor]!.since >= refreshBegan { trusted = false }
                }
                for descriptor in folders.keys where !listed.contains(descriptor) {
                    inotify_rm_watch(watcher.notifications, descriptor)
                    folders[descriptor] = nil
                    moved.remove(descriptor)
                }
                log.finishRefresh(identity: identity, trusted: trusted)
                // Opened as written: another writer's index (whose changes the log does not
                // know) is not used to answer queries.
                if case .success(let stored?) = TreeIndexStore.open(root: watcher.root), stored.identity == identity {
                    opened = stored
                    positions = ListingPositions(stored.listing.files)
                    unseen = stored.listing.watchedUnseen(root: watcher.root)
                } else {
                    opened = nil
                    positions = nil
                }
                // Another writer replaced the index meanwhile, or the log is spoiled: again.
                if !trusted || indexReplaced && TreeIndexStore.storedIdentity(root: watcher.root) != identity || log.needsRefresh { noteChange() }
                report(.refreshed(outcome, nanoseconds: elapsed, trusted: trusted))
            }
        }

        /// A refresh failed: the watcher ends when there never was an index; else it says so and
        /// tries again after the next change.
        mutating func fail(_ message: String, report: (Event) -> Void) throws(Error) {
            log.abandonRefresh()
            guard log.current != nil else { throw .indexUnwritable(message) }
            report(.refreshFailed(message))
        }

        mutating func noteChange() {
            let now = monotonicNanoseconds()
            if firstChange == nil { firstChange = now }
            lastChange = now
        }

        mutating func readEvents(into buffer: inout [UInt8], report: (Event) -> Void) throws(Error) {
            while true {
                let count = buffer.withUnsafeMutableBytes { PlatformCalls.read(watcher.notifications, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                var offset = 0
                while offset + 16 <= count {
                    let (descriptor, mask, length) = buffer.withUnsafeBytes { raw in
                        (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self), raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                         Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                    }
                    let name = Array(buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 })
                    offset += 16 + length
                    try handle(descriptor: descriptor, mask: mask, name: name, report: report)
                }
            }
        }

        mutating func handle(descriptor: Int32, mask: UInt32, name: [UInt8], report: (Event) -> Void) throws(Error) {
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                log.recordUnplaceable()
                noteChange()
                answerAll()
                report(.overflowed)
                return
            }
            if descriptor == indexFolder {
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    indexFolder = nil
                    noteChange()
                } else if name.starts(with: TreeWatcher.cookiePrefix), let number = Int(String(decoding: name.dropFirst(TreeWatcher.cookiePrefix.count), as: UTF8.self)) {
                    answer(upTo: number)
                } else if name == Array(TreeIndexStore.manifestName.utf8) {
                    indexReplaced = true
                    if !log.isRefreshing, TreeIndexStore.storedIdentity(root: watcher.root) != log.current?.identity { noteChange() }
                }
                return
            }
            guard let folder = folders[descriptor] else { return }
            if mask & UInt32(IN_IGNORED) != 0 {
                // Removed (its removal is an event of its parent), or unwatched by us.
                folders[descriptor] = nil
                moved.remove(descriptor)
                return
            }
            if moved.contains(descriptor) {
                log.recordUnplaceable()
                noteChange()
                return
            }
            if mask & UInt32(IN_MOVE_SELF) != 0 {
                // The folder and everything watched below it now live under another path.
                let below = folder.path + [UInt8(ascii: "/")]
                for (other, entry) in folders where other == descriptor || folder.path.isEmpty || entry.path.starts(with: below) { moved.insert(other) }
                log.recordUnplaceable()
                noteChange()
                return
            }
            if mask & UInt32(IN_DELETE_SELF) != 0 { return }
            // The index's own folder is not part of the tree.
            if folder.path.isEmpty && name == Array(TreeIndexStore.folderName.utf8) { return }
            log.record(name.isEmpty ? folder.path : folder.path.isEmpty ? name : folder.path + [UInt8(ascii: "/")] + name)
            noteChange()
        }

        mutating func accept() {
            while true {
                let descriptor = PlatformCalls.accept(watcher.listener)
                guard descriptor >= 0 else { return }
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                guard trawl_peer_uid(descriptor) == Int64(geteuid()) else {
                    close(descriptor)
                    continue
                }
                asking[descriptor] = ([], monotonicNanoseconds() + 2_000_000_000)
            }
        }

        mutating func read(from descriptor: Int32) {
            guard var entry = asking[descriptor] else { return }
            var chunk = [UInt8](repeating: 0, count: 128)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            guard count > 0 else {
                asking[descriptor] = nil
                close(descriptor)
                return
            }
            entry.request += chunk[0..<count]
            // A query's literals are short; a request past this is not one.
            guard entry.request.last == UInt8(ascii: "\n") || entry.request.count > 1 << 20 else {
                asking[descriptor] = entry
                return
            }
            asking[descriptor] = nil
            let request: Request
            if let identity = TreeWatchChannel.identity(inRequest: entry.request) {
                request = .changes(since: identity)
            } else if let search = TreeWatchChannel.search(inRequest: entry.request) {
                request = .selection(search.query, skipsBinaryFiles: search.skipsBinaryFiles)
            } else {
                close(descriptor)
                return
            }
            // The cookie: once its event is read, so are those of every change made before.
            cookies += 1
            let made = cookieFolder.map { openat($0.descriptor, cookieName(cookies), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) } ?? -1
            guard made >= 0, indexFolder != nil else {
                if made >= 0 {
                    close(made)
                    removeCookie(cookies)
                }
                reply(descriptor, TreeWatchChannel.unknownReply)
                return
            }
            close(made)
            waiting.append((descriptor, request, cookies, entry.deadline))
        }

        /// The reply to `request`, every change made before it counted.
        mutating func answer(_ request: Request) -> [UInt8] {
            guard watcher.rootIsTheSame else { return TreeWatchChannel.unknownReply }
            // An ignore file out of the events' sight changed: no event will ask for the refresh.
            if let opened {
                let watched = opened.listing.watched
                let now = unseen.map { FileSignature.of(watcher.root.appending(relative: watched[$0].path)) }
                if !zip(unseen, now).allSatisfy({ watched[$0].isCurrent($1) }) {
                    let time = monotonicNanoseconds()
                    if staleUnseen.map({ $0.signatures != now || time - $0.at > TreeWatcher.staleRefreshNanoseconds }) ?? true {
                        staleUnseen = (now, time)
                        noteChange()
                    }
                    return TreeWatchChannel.unknownReply
                }
            }
            switch request {
            case .changes(let identity):
                return TreeWatchChannel.reply(log.changes(since: identity))
            case .selection(let query, let skipsBinaryFiles):
                guard let stored = opened, let changes = log.changes(since: stored.identity),
                      let watched = stored.listing.filesChanged(by: changes, root: watcher.root, unseen: []) else {
                    return TreeWatchChannel.unknownReply
                }
                let candidates: PostingList?
                do { candidates = try stored.candidates(for: query) } catch {
                    // A damaged index: the search opens it and says so.
                    return TreeWatchChannel.unknownReply
                }
                let files = stored.listing.files
                let selected = if let positions, let candidates {
                    positions.select(files, candidates: candidates, watched: watched, skipsBinaryFiles: skipsBinaryFiles)
                } else {
                    TreeIndexNarrowing.select(files, root: watcher.root, candidates: candidates, watched: watched,
                                              skipsBinaryFiles: skipsBinaryFiles, excludes: nil)
                }
                let narrowed = denseFiles.narrow(selected.files, of: files, changed: watched.changed, query: query, root: watcher.root)
                return TreeWatchChannel.reply(TreeWatchChannel.Selection(paths: narrowed.handed.map { files[$0.position].path },
                                                                         recordedSkips: narrowed.handed.map(\.recordedSkip),
                                                                         filesRuledOut: selected.filesRuledOut + narrowed.files,
                                                                         bytesRuledOut: selected.bytesRuledOut + narrowed.bytes))
            }
        }

        /// Answers the searches whose cookies are at most `number`, and removes those cookies.
        mutating func answer(upTo number: Int) {
            let due = waiting.filter { $0.cookie <= number }
            waiting.removeAll { $0.cookie <= number }
            for search in due {
                reply(search.descriptor, answer(search.request))
                removeCookie(search.cookie)
            }
        }

        /// After lost events: every waiting search is told the watcher cannot say.
        mutating func answerAll() {
            for search in waiting {
                reply(search.descriptor, TreeWatchChannel.unknownReply)
                removeCookie(search.cookie)
            }
            waiting.removeAll()
        }

        func cookieName(_ number: Int) -> String { String(decoding: TreeWatcher.cookiePrefix, as: UTF8.self) + String(number) }

        func removeCookie(_ number: Int) { cookieFolder?.remove(cookieName(number)) }

        func reply(_ descriptor: Int32, _ bytes: [UInt8]) {
            // The reply may be long (a checkout changes thousands of files): sent blocking, within
            // a time limit.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            var limit = timeval(tv_sec: 0, tv_usec: 250_000)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            // A search that went away, or reads too slowly, is no matter (it checks files itself).
            _ = TreeWatchChannel.sendAll(bytes, to: descriptor, within: 1_000_000_000)
            close(descriptor)
        }

        /// Searches that took too long to ask, or whose cookie never came, are let go.
        mutating func dropLate() {
            let now = monotonicNanoseconds()
            for (descriptor, entry) in asking where entry.deadline <= now {
                asking[descriptor] = nil
                close(descriptor)
            }
            for search in waiting where search.deadline <= now {
                reply(search.descriptor, TreeWatchChannel.unknownReply)
                removeCookie(search.cookie)
            }
            waiting.removeAll { $0.deadline <= now }
        }

        func finish() {
            for descriptor in asking.keys { close(descriptor) }
            for search in waiting {
                close(search.descriptor)
                removeCookie(search.cookie)
            }
        }
    }
    #endif
}

