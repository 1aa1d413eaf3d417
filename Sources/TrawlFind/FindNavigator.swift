import Observation
import TrawlIndex
import TrawlMatch
import TrawlText

/// The find and replace interface of one editor, without the UI: a headless, observable model of
/// SwiftUI's `findNavigator(isPresented:)` with the behaviour of VS Code's find widget.
///
/// The match set is exact (no cap on the count) and stays equal to a full search of the document
/// through every edit, undo and redo: an edit re-matches only the region it can affect, bounded by
/// the matcher's `MatchLocality`. Documents above ``backgroundThreshold`` bytes are searched on a
/// snapshot in the background, with matches published as they are found; a new query cancels the
/// search in progress.
@MainActor @Observable
public final class FindNavigator {
    /// The document searched.
    public let document: TextDocument

    // MARK: Presentation

    /// Whether the find interface is shown (the `isPresented` binding).
    public var isPresented: Bool {
        get { presented }
        set { if newValue { present() } else { dismiss() } }
    }
    /// Whether the replace part is shown.
    public private(set) var isReplaceShown = false
    private var presented = false

    /// Whether find and replace are allowed; a `ScopeTree` sets it from the nearest scope.
    /// Disabling find dismisses the navigator; disabling replace hides the replace part.
    public var policy: FindPolicy = .enabled {
        didSet {
            if policy.isFindDisabled { dismiss() }
            if policy.isReplaceDisabled { isReplaceShown = false }
        }
    }
    /// Called each time the navigator is hidden, by any means: a `ScopeTree` forgets which
    /// presenting modifier showed it.
    @ObservationIgnored package var presentationDidEnd: (() -> Void)?

    /// Whether replace actions can run now.
    public var isReplaceAvailable: Bool { !policy.isReplaceDisabled }

    // MARK: Query

    /// The text to find (a literal, or a PCRE2 pattern when ``options`` says regex).
    public var query = "" { didSet { if query != oldValue { search() } } }
    /// Match case, whole word, regex. Whatever its `MatchOptions/emptyMatchRule` says, the
    /// navigator finds empty matches as VS Code's find does
    /// (`EmptyMatchRule/skippedWhereAMatchEndedItsLine`: `\d*` finds 7 matches in `10.243.30.10`,
    /// `.*` each line once), as an editor's find is expected to.
    public var options = MatchOptions() { didSet { if options != oldValue { search() } } }
    /// Whether next and previous wrap around the document's ends.
    public var wraps = true
    /// The replacement (a template in regex mode: `$1`, `${name}`, `\u`...).
    public var replacement = ""
    /// Whether a static replacement takes the case of the text it replaces.
    public var preservesCase = false

    // MARK: Results

    /// Every match, in order.
    public internal(set) var matches = MatchSet()
    /// Why the query gives no matches, when it cannot be searched.
    public private(set) var diagnostic: FindDiagnostic? = .emptyQuery
    /// Whether a background search is still running (``matches`` grows until it ends).
    public private(set) var isSearching = false
    /// The ranges find is restricted to ("find in selection"), or `nil` for the whole document.
    public var scopes: [Range<Int>]? {
        // Edits can make two scopes overlap: merged, they stay in order and disjoint.
        scopeHandles.map { handles in handles.compactMap { document.range(of: $0) }.mergingOverlaps() }
    }

    @ObservationIgnored private var scopeHandles: [TextDocument.TrackedRange]?
    @ObservationIgnored private(set) var matcher: (any Matcher)?
    @ObservationIgnored private var observer: TextDocument.Observer?
    @ObservationIgnored private var searchTask: Task<Void, Never>?
    @ObservationIgnored private var generation = 0
    /// The edits made since the snapshot a background search runs on (`nil` when none runs).
    @ObservationIgnored private var editsSinceSnapshot: [TextEdit]?

    /// Documents larger than this many bytes are searched in the background.
    public static let backgroundThreshold = 4 << 20

    /// Documents at least this large get a trigram index (see ``defaultIndexThreshold``).
    @ObservationIgnored public var indexThreshold = FindNavigator.defaultIndexThreshold
    @ObservationIgnored var documentIndex: DocumentIndex?
    @ObservationIgnored var indexBuild: Task<Void, Never>?
    /// Changes not yet applied to the index (each with the text before it).
    @ObservationIgnored var pendingIndexChanges: [(edits: [TextEdit], before: Rope)] = []

    /// A navigator for `document`.
    public init(document: TextDocument) {
        self.document = document
        observer = document.addObserver { [weak self] document, change in
            self?.documentChanged(change)
        }
    }

    isolated deinit {
        searchTask?.cancel()
        indexBuild?.cancel()
        if let observer { document.removeObserver(observer) }
    }

    /// The number of matches.
    public var matchCount: Int { matches.count }

    /// The index of the match that is the primary selection, if it is one.
    public var currentMatchIndex: Int? { matches.index(of: document.primarySelection) }

    /// The match "i of N" names: the selected match, else the one ``findNext()`` would select
    /// (the first starting at or after the selection's end, the first of all when wrapping past
    /// the last), as current editors count; nil when next would select none.
    public var positionMatchIndex: Int? { currentMatchIndex ?? nextIndex(wrapping: wraps) }

    /// "3 of 12000000" (see ``positionMatchIndex``), "? of 5" when no match is next (past the last
    /// without wrap), "Searching…" or "No results" when there are none yet or at all.
    public var positionDescription: String {
        if matches.isEmpty { return isSearching ? "Searching…" : "No results" }
        return "\(positionMatchIndex.map { String($0 + 1) } ?? "?") of \(matches.count)"
    }

    // MARK: Presenting

    /// Shows the find interface (and the replace part when `replace` is true and allowed). Has no
    /// effect when find is disabled.
    public func present(replace: Bool = false) {
        guard !policy.isFindDisabled else { return }
        presented = true
        if replace && !policy.isReplaceDisabled { isReplaceShown = true }
    }

    /// Hides the find interface.
    public func dismiss() {
        let wasPresented = presented
        presented = false
        isReplaceShown = false
        if wasPresented { presentationDidEnd?() }
    }

    // MARK: Scopes

    /// Restricts find to the current selections ("find in selection"); empty selections are
    /// ignored, and with none left find covers the document.
    public func findInSelection() {
        let ranges = document.selections.filter { !$0.isEmpty }
        restrict(to: ranges.isEmpty ? nil : ranges)
    }

    /// Restricts find to `ranges` (which move with edits), or lifts the restriction with `nil`.
    public func restrict(to ranges: [Range<Int>]?) {
        scopeHandles?.forEach(document.stopTracking)
        scopeHandles = ranges?.sorted { $0.lowerBound < $1.lowerBound }.map(document.track)
        search()
    }

    // MARK: Searching

    /// Searches the whole document (or the scopes) again with the current query and options.
    func search() {
        searchTask?.cancel()
        searchTask = nil
        generation += 1
        isSearching = false
        editsSinceSnapshot = nil
        matches = MatchSet()
        diagnostic = nil
        matcher = nil
        guard !query.isEmpty else {
            diagnostic = .emptyQuery
            return
        }
        var editorOptions = options
        editorOptions.emptyMatchRule = .skippedWhereAMatchEndedItsLine
        do {
            matcher = try editorOptions.makeMatcher(for: query)
        } catch {
            if case .invalidPattern(let message, let offset) = error {
                diagnostic = .invalidPattern(message: message, offset: offset)
            } else {
                diagnostic = .invalidPattern(message: error.description, offset: 0)
            }
            return
        }
        let text = document.text
        // The index names the only regions that can match (exactly the matches of a full search).
        let ranges = indexedRegions(for: matcher!, in: text) ?? searchRanges(in: text)
        if text.utf8Count <= FindNavigator.backgroundThreshold || ranges.reduce(0, { $0 + $1.count }) <= FindNavigator.backgroundThreshold {
            do {
                matches = MatchSet(try FindNavigator.scan(matcher!, text, ranges))
            } catch {
                fail(error)
            }
            startIndexingIfNeeded(text)
        } else {
            // The index is built once this search is done (not beside it, on a shared core).
            searchInBackground(text, ranges)
        }
    }

    /// The ranges searched: the scopes, or the whole text.
    private func searchRanges(in text: Rope) -> [Range<Int>] { scopes ?? [0..<text.utf8Count] }

    private func fail(_ error: MatchError) {
        matches = MatchSet()
        switch error {
        case .limitExceeded(_, let offset): diagnostic = .tooExpensive(message: error.description, offset: offset)
        case .cancelled: break
        default: diagnostic = .tooExpensive(message: error.description, offset: 0)
        }
    }

    /// Every match in `ranges` of `text`, each range searched with the whole text as context and
    /// matches kept only when they lie inside their range; handed to `each` as found when given
    /// (then not collected).
    nonisolated static func scan(_ matcher: any Matcher, _ text: Rope, _ ranges: [Range<Int>],
                                 each: ((Range<Int>) -> Void)? = nil) throws(MatchError) -> [Range<Int>] {
        var found: [Range<Int>] = []
        try matcher.forEachMatch(in: text, ranges: ranges) { match in
            if let each { each(match.range) } else { found.append(match.range) }
        }
        return found
    }

    private func searchInBackground(_ text: Rope, _ ranges: [Range<Int>]) {
        guard let matcher else { return }
        isSearching = true
        let current = generation
        enum Event: Sendable {
            case found(MatchSet, isFinal: Bool)
            case failed(MatchError)
        }
        editsSinceSnapshot = []
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        let scanner = Task.detached(priority: .userInitiated) {
            // The scanner builds each published set itself (bottom-up, O(n)), so the main actor
            // only swaps one value per publication: the first match at once, then each time the
            // count has grown eightfold, later doubled (O(n) work in all).
            var all: [Range<Int>] = []
            var next = 1
            do throws(MatchError) {
                _ = try FindNavigator.scan(matcher, text, ranges) { match in
                    all.append(match)
                    if all.count >= next {
                        continuation.yield(.found(MatchSet(all), isFinal: false))
                        next = all.count < 65_536 ? all.count * 8 : all.count * 2
                    }
                }
                continuation.yield(.found(MatchSet(all), isFinal: true))
            } catch {
                continuation.yield(.failed(error))
            }
            continuation.finish()
        }
        searchTask = Task { [weak self] in
            await withTaskCancellationHandler {
                for await event in events {
                    guard let self, self.generation == current else { break }
                    switch event {
                    case .found(let snapshot, let isFinal): self.publish(snapshot, isFinal: isFinal)
                    case .failed(let error): self.fail(error)
                    }
                }
                if let self, self.generation == current {
                    self.isSearching = false
                    self.editsSinceSnapshot = nil
                }
            } onCancel: {
                scanner.cancel()
            }
        }
    }

    /// Takes matches found in the snapshot being searched, brought to the current text: partial
    /// ones only shifted past the edits made since (a glimpse while the search runs), the final
    /// set patched exactly as after any edit.
    private func publish(_ snapshot: MatchSet, isFinal: Bool) {
        let edits = editsSinceSnapshot ?? []
        if isFinal {
            matches = snapshot
            editsSinceSnapshot = nil
            isSearching = false
            startIndexingIfNeeded(document.text)
            guard let matcher, !edits.isEmpty else { return }
            do { try update(after: edits, matcher: matcher) } catch { fail(error) }
        } else {
            var shifted = snapshot
            for edit in edits { shifted.removeMatches(touching: edit.replacedRange, shiftingLaterBy: edit.lengthDelta) }
            matches = shifted
        }
    }

    // MARK: Following edits

    private func documentChanged(_ change: TextDocument.Change) {
        indexNote(change)
        guard let matcher else { return }
        if let diagnostic, case .tooExpensive = diagnostic {
            // The search gave up: there is no match set to patch; the edit may have made it cheap.
            search()
            return
        }
        if isSearching, var edits = editsSinceSnapshot, edits.count + change.edits.count <= FindNavigator.incrementalEditLimit {
            // The background search goes on over its snapshot; its result is patched with these.
            // Meanwhile the matches found so far move with the text (those touched are dropped).
            edits += change.edits
            editsSinceSnapshot = edits
            for edit in change.edits { matches.removeMatches(touching: edit.replacedRange, shiftingLaterBy: edit.lengthDelta) }
            return
        }
        if isSearching || change.edits.count > FindNavigator.incrementalEditLimit {
            // A very large batch (a replace all, its undo) touches too much to patch: search again.
            search()
            return
        }
        do {
            try update(after: change.edits, matcher: matcher)
        } catch {
            fail(error)
        }
    }

    /// Above this many edits in one change, the navigator searches again instead of patching.
    static let incrementalEditLimit = 512
}
