import Observation

/// What a find interface shows, as one value: for hosts without SwiftUI that follow the navigator
/// through ``FindNavigator/stateUpdates()`` rather than by observing its properties.
public struct FindState: Hashable, Sendable {
    /// Whether the find interface is shown.
    public var isPresented: Bool
    /// Whether its replace field is shown.
    public var isReplaceShown: Bool
    /// The matches found so far (all of them once the search is done).
    public var matchCount: Int
    /// The index of the match that is the primary selection, if it is one.
    public var currentMatchIndex: Int?
    /// Whether a search of a large document is still under way.
    public var isSearching: Bool
    /// Why the query finds nothing, when it cannot be searched (empty, invalid), else nil.
    public var diagnostic: FindDiagnostic?
    /// "3 of 12", as the interface shows the position.
    public var positionDescription: String
}

extension FindNavigator {
    /// The current state.
    public var state: FindState {
        FindState(isPresented: isPresented, isReplaceShown: isReplaceShown, matchCount: matchCount,
                  currentMatchIndex: currentMatchIndex, isSearching: isSearching, diagnostic: diagnostic,
                  positionDescription: positionDescription)
    }

    /// The state now, then again after every change of it (consecutive equal states are sent
    /// once), until the navigator goes away or the consumer stops listening.
    public func stateUpdates() -> AsyncStream<FindState> {
        AsyncStream { continuation in
            let observer = StateObserver(continuation: continuation)
            continuation.onTermination = { _ in Task { @MainActor in observer.isFinished = true } }
            observer.observe(self)
        }
    }

    /// Match `index` in UTF-16 code units, for hosts whose text APIs count them (NSString,
    /// UITextView, JavaScript).
    public func utf16Range(ofMatch index: Int) -> Range<Int> {
        let range = matches[index]
        let text = document.text
        return text.utf16Offset(ofUTF8: range.lowerBound)..<text.utf16Offset(ofUTF8: range.upperBound)
    }
}

/// Re-arms Observation tracking after each change and sends the new state.
@MainActor
private final class StateObserver {
    let continuation: AsyncStream<FindState>.Continuation
    var last: FindState?
    /// Set when the consumer stopped listening: tracking is not re-armed.
    var isFinished = false

    init(continuation: AsyncStream<FindState>.Continuation) { self.continuation = continuation }

    func observe(_ navigator: FindNavigator?) {
        guard !isFinished else { return }
        guard let navigator else { return continuation.finish() }
        let state = withObservationTracking {
            navigator.state
        } onChange: { [weak navigator] in
            Task { @MainActor in self.observe(navigator) }
        }
        if state != last {
            last = state
            continuation.yield(state)
        }
    }
}
