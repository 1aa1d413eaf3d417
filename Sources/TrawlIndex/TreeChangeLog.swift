/// What a tree's watcher saw change since each index state it vouches for: the paths named by its
/// file-system events since the refresh that made (or confirmed) that state began. A file not
/// named is unchanged since that refresh read it, so a search can trust the index for it without
/// a `stat`.
///
/// Three records at most: the state adopted last (`current`), the one before it (a search that
/// opened the index just before a refresh finished still asks of that one), and the record of a
/// refresh under way (`pending`), begun before the refresh reads anything.
package struct TreeChangeLog: Sendable, Equatable {
    /// Paths changed since one index state, or `nil` when some change could not be placed (events
    /// lost, a folder moved): then only a full check will do.
    package struct Record: Sendable, Equatable {
        /// The body checksum of the index's manifest (``StoredTreeIndex/identity``).
        package var identity: UInt64
        package var paths: Set<[UInt8]>? = []
    }

    package private(set) var current: Record?
    package private(set) var previous: Record?
    /// Paths changed since the refresh under way began (`nil` when unplaceable).
    package private(set) var pending: Set<[UInt8]>??

    package init() {}

    /// Whether a refresh is under way.
    package var isRefreshing: Bool { pending != nil }

    /// Past this many paths a record is spoiled (a search would `stat` as many anyway), so it
    /// cannot grow without bound while refreshes fail.
    static let longestRecord = 100_000

    /// A path (relative to the root) changed.
    package mutating func record(_ path: [UInt8]) {
        current?.paths?.insert(path)
        previous?.paths?.insert(path)
        if case .some(.some) = pending { pending!!.insert(path) }
        if current?.paths?.count ?? 0 > TreeChangeLog.longestRecord { current?.paths = nil }
        if previous?.paths?.count ?? 0 > TreeChangeLog.longestRecord { previous?.paths = nil }
        if case .some(.some(let paths)) = pending, paths.count > TreeChangeLog.longestRecord { pending = .some(nil) }
    }

    /// Something changed that no path names: every record is spoiled.
    package mutating func recordUnplaceable() {
        current?.paths = nil
        previous?.paths = nil
        if pending != nil { pending = .some(nil) }
    }

    /// A refresh begins: from now on changes are also recorded for the state it will leave.
    package mutating func beginRefresh() {
        precondition(pending == nil, "one refresh at a time")
        pending = .some([])
    }

    /// The refresh begun last left the index in the state `identity`. With `trusted` false
    /// (what it read may have changed unseen: a folder was watched only after it began) the new
    /// record is spoiled, and another refresh is due.
    package mutating func finishRefresh(identity: UInt64, trusted: Bool) {
        guard case .some(let paths) = pending else { preconditionFailure("no refresh under way") }
        pending = nil
        // The same state again (nothing changed) keeps only the newer record: it is the shorter.
        if current?.identity != identity { previous = current }
        current = Record(identity: identity, paths: trusted ? paths : nil)
    }

    /// A refresh ended without leaving a state (it failed): its record is dropped.
    package mutating func abandonRefresh() { pending = nil }

    /// The paths changed since the index state `identity`, or `nil` when the watcher cannot say
    /// (a state it does not vouch for, or changes it could not place).
    package func changes(since identity: UInt64) -> Set<[UInt8]>? {
        if let current, current.identity == identity { return current.paths }
        if let previous, previous.identity == identity { return previous.paths }
        return nil
    }

    /// Whether the state adopted last is spoiled or absent, so a refresh is due.
    package var needsRefresh: Bool { current?.paths == nil }
}
