import Observation
import TrawlText

/// An editable text: a `Rope`, one or more selections, and undo/redo in groups, publishing every
/// change as `TextEdit` records so that selections, tracked ranges and a find navigator follow
/// it without rescanning.
///
/// Offsets are UTF-8 byte offsets (the rope converts to UTF-16 and lines in O(log n)). Every
/// mutating call is one undo step; ``groupingUndo(_:)`` makes several calls one step.
@MainActor @Observable
public final class TextDocument {
    /// The text.
    public private(set) var text: Rope
    /// The selections, in order and not overlapping; empty ranges are carets. Never empty.
    public private(set) var selections: [Range<Int>]
    /// Which selection is the primary one (the one "next" and "previous" start from).
    public private(set) var primarySelectionIndex: Int
    /// Incremented by every change of the text.
    public private(set) var revision = 0

    @ObservationIgnored private var undoStack: [UndoGroup] = []
    @ObservationIgnored private var redoStack: [UndoGroup] = []
    @ObservationIgnored private var openGroup: UndoGroup?
    @ObservationIgnored private var groupDepth = 0
    @ObservationIgnored private var observers: [Int: @MainActor (TextDocument, Change) -> Void] = [:]
    @ObservationIgnored private var nextObserver = 0
    @ObservationIgnored private var tracked: [Int: Range<Int>] = [:]

    /// A change of the text, as observers see it.
    public struct Change: Sendable {
        /// The edits, in the order they were made (each in the offsets of the text it was made on).
        public var edits: [TextEdit]
        /// The text before the change.
        public var before: Rope
        /// Why the text changed.
        public var kind: Kind

        /// What made a change: an edit, an undo or a redo.
        public enum Kind: Sendable {
            case edit, undo, redo
        }
    }

    /// One undo step: the texts before and after it (ropes are persistent, so keeping both costs
    /// only the nodes they do not share) and the edits that lead from one to the other.
    private struct UndoGroup {
        var before: Rope
        var after: Rope
        var edits: [TextEdit]
        var selectionsBefore: [Range<Int>]
        var primaryBefore: Int
        var selectionsAfter: [Range<Int>]
        var primaryAfter: Int
        var trackedBefore: [Int: Range<Int>]
        var trackedAfter: [Int: Range<Int>] = [:]
    }

    /// A document holding `text`, with a caret at its start.
    public init(_ text: Rope = Rope()) {
        self.text = text
        selections = [0..<0]
        primarySelectionIndex = 0
    }

    /// A document holding `string`.
    public convenience init(_ string: String) { self.init(Rope(string)) }

    /// The primary selection.
    public var primarySelection: Range<Int> { selections[primarySelectionIndex] }

    // MARK: Selections

    /// Selects `range` (one selection).
    public func select(_ range: Range<Int>) { select([range], primary: 0) }

    /// Sets the selections: clamped to the text and to scalar boundaries, sorted, overlapping ones
    /// merged; `primary` indexes `ranges`.
    public func select(_ ranges: [Range<Int>], primary: Int = 0) {
        precondition(!ranges.isEmpty, "a document always has a selection")
        let primaryRange = clamped(ranges[min(max(primary, 0), ranges.count - 1)])
        let merged = ranges.map(clamped).mergingOverlaps()
        selections = merged
        // The merged range that is the primary one exactly, else the one holding it.
        primarySelectionIndex = merged.firstIndex(of: primaryRange)
            ?? merged.firstIndex { $0.lowerBound <= primaryRange.lowerBound && primaryRange.upperBound <= $0.upperBound } ?? 0
    }

    private func clamped(_ range: Range<Int>) -> Range<Int> {
        let lower = text.clamp(range.lowerBound), upper = text.clamp(max(range.upperBound, range.lowerBound))
        return lower..<max(lower, upper)
    }

    // MARK: Tracked ranges

    /// An opaque handle to a range the document keeps up to date through edits, undo and redo.
    public struct TrackedRange: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// Starts keeping `range` up to date.
    public func track(_ range: Range<Int>) -> TrackedRange {
        nextObserver += 1
        tracked[nextObserver] = clamped(range)
        return TrackedRange(id: nextObserver)
    }

    /// The current range of a tracked range (`nil` once it is no longer tracked).
    public func range(of handle: TrackedRange) -> Range<Int>? { tracked[handle.id] }

    /// Stops keeping a range up to date.
    public func stopTracking(_ handle: TrackedRange) { tracked[handle.id] = nil }

    // MARK: Observers

    /// An opaque handle to an observer, for ``removeObserver(_:)``.
    public struct Observer: Hashable, Sendable {
        fileprivate let id: Int
    }

    /// Calls `body` after every change of the text, with the document already changed.
    public func addObserver(_ body: @escaping @MainActor (TextDocument, Change) -> Void) -> Observer {
        nextObserver += 1
        observers[nextObserver] = body
        return Observer(id: nextObserver)
    }

    /// Stops calling `observer`.
    public func removeObserver(_ observer: Observer) { observers[observer.id] = nil }

    // MARK: Editing

    /// Replaces `range` with `string` and puts a caret after the insertion. One undo step.
    @discardableResult
    public func replace(_ range: Range<Int>, with string: String) -> TextEdit {
        let range = clamped(range)
        var edit: TextEdit?
        groupingUndo {
            edit = apply([(range, string)])[0]
            let caret = range.lowerBound + string.utf8.count
            select([caret..<caret])
        }
        return edit!
    }

    /// Types `string` over every selection (as multi-cursor typing does). One undo step.
    public func insertAtSelections(_ string: String) {
        groupingUndo {
            apply(selections.map { ($0, string) })
            // Carets after each insertion: the selections moved with the edits.
            select(selections.map { $0.upperBound..<$0.upperBound }, primary: primarySelectionIndex)
        }
    }

    /// Makes the changes (ranges in the current text, in order, not overlapping) as one batch
    /// and returns the edits, last change first (each in the offsets of the text it was made on).
    /// Selections and tracked ranges move with them; a single undo step unless inside
    /// ``groupingUndo(_:)``.
    @discardableResult
    public func apply(_ changes: [(range: Range<Int>, replacement: String)]) -> [TextEdit] {
        guard !changes.isEmpty else { return [] }
        var edits: [TextEdit] = []
        groupingUndo {
            let before = text
            edits.reserveCapacity(changes.count)
            if changes.count > TextDocument.rebuildThreshold {
                text = rebuilt(with: changes)
                // The same edits, last first, as if made one by one.
                for change in changes.reversed() {
                    edits.append(TextEdit(replacedRange: change.range, insertedCount: change.replacement.utf8.count))
                }
            } else {
                for change in changes.reversed() {
                    edits.append(text.replace(change.range, with: change.replacement))
                }
            }
            // One sweep moves every selection and tracked range through the whole batch.
            let ascending = changes.map { TextEdit(replacedRange: $0.range, insertedCount: $0.replacement.utf8.count) }
            let movedSelections = TextDocument.move(selections, through: ascending)
            let trackedIDs = Array(tracked.keys)
            let movedTracked = TextDocument.move(trackedIDs.map { tracked[$0]! }, through: ascending)
            commit(edits, before: before, kind: .edit,
                   moved: (movedSelections, Dictionary(uniqueKeysWithValues: zip(trackedIDs, movedTracked))))
        }
        return edits
    }

    /// The text with many changes made, built in one pass over its bytes.
    private func rebuilt(with changes: [(range: Range<Int>, replacement: String)]) -> Rope {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8Count + changes.reduce(0) { $0 + $1.replacement.utf8.count - $1.range.count })
        var copied = 0
        func copy(upTo end: Int) {
            for chunk in text.chunks(in: copied..<end) { chunk.withUnsafeBytes { bytes.append(contentsOf: $0) } }
            copied = end
        }
        for change in changes {
            copy(upTo: change.range.lowerBound)
            bytes.append(contentsOf: change.replacement.utf8)
            copied = change.range.upperBound
        }
        copy(upTo: text.utf8Count)
        return try! Rope(validating: bytes) // slices of a valid text at scalar boundaries and strings
    }

    /// Above this many changes in one batch, ``apply(_:)`` rebuilds the text instead of editing it.
    static let rebuildThreshold = 512

    /// Makes every change inside `body` one undo step.
    public func groupingUndo(_ body: () throws -> Void) rethrows {
        if groupDepth == 0 {
            openGroup = UndoGroup(before: text, after: text, edits: [], selectionsBefore: selections,
                                  primaryBefore: primarySelectionIndex, selectionsAfter: selections, primaryAfter: primarySelectionIndex,
                                  trackedBefore: tracked)
        }
        groupDepth += 1
        defer {
            groupDepth -= 1
            if groupDepth == 0, var group = openGroup {
                openGroup = nil
                if !group.edits.isEmpty {
                    group.after = text
                    group.selectionsAfter = selections
                    group.primaryAfter = primarySelectionIndex
                    group.trackedAfter = tracked
                    undoStack.append(group)
                    redoStack.removeAll()
                }
            }
        }
        try body()
    }

    /// Records a change and tells the observers. Selections and tracked ranges move through the
    /// edits, or, for undo and redo, take the values `restoring` gives (ranges tracked since keep
    /// moving).
    private func commit(_ edits: [TextEdit], before: Rope, kind: Change.Kind,
                        restoring: (selections: [Range<Int>], primary: Int, tracked: [Int: Range<Int>])? = nil,
                        moved precomputed: (selections: [Range<Int>], tracked: [Int: Range<Int>])? = nil) {
        revision += 1
        for (id, range) in tracked {
            tracked[id] = restoring?.tracked[id] ?? precomputed?.tracked[id] ?? move(range, through: edits)
        }
        if let restoring {
            selections = restoring.selections
            primarySelectionIndex = restoring.primary
        } else {
            let moved = precomputed?.selections ?? selections.map { move($0, through: edits) }
            // Edits keep the order of selections; only ones that now overlap need merging.
            if zip(moved, moved.dropFirst()).allSatisfy({ $0.upperBound <= $1.lowerBound && $0 != $1 }) {
                selections = moved
            } else {
                select(moved, primary: primarySelectionIndex)
            }
        }
        if kind == .edit { openGroup!.edits += edits } // edits are always made inside a group
        let change = Change(edits: edits, before: before, kind: kind)
        for observer in observers.keys.sorted() { observers[observer]?(self, change) }
    }

    /// `ranges` moved through one batch of `changes` (in the original text's offsets, ascending,
    /// not overlapping) in one sweep: O(ranges + changes), where moving each range through each
    /// change would be their product (a million carets typing). Each offset gets the transform of
    /// the last change starting at or before it, plus the length changes of the ones before that —
    /// what making the changes one by one from the last gives.
    static func move(_ ranges: [Range<Int>], through changes: [TextEdit]) -> [Range<Int>] {
        // Endpoints in ascending order, with their bias and where they go.
        var endpoints: [(offset: Int, bias: Bias, slot: Int)] = []
        endpoints.reserveCapacity(ranges.count * 2)
        for (index, range) in ranges.enumerated() {
            endpoints.append((range.lowerBound, range.isEmpty ? .forward : .backward, 2 * index))
            endpoints.append((range.upperBound, .forward, 2 * index + 1))
        }
        endpoints.sort { ($0.offset, $0.slot) < ($1.offset, $1.slot) }
        var results = [Int](repeating: 0, count: endpoints.count)
        var next = 0, deltaBefore = 0
        var last: TextEdit?, deltaBeforeLast = 0
        // The insertions right before `last` at its very start: an offset kept there (backward
        // bias) is not pushed past them, as making the changes one by one would not.
        var insertionsAtLastStart = 0
        for endpoint in endpoints {
            while next < changes.count && changes[next].replacedRange.lowerBound <= endpoint.offset {
                let change = changes[next]
                if let last {
                    deltaBefore += last.lengthDelta
                    let touching = last.replacedRange.isEmpty && last.replacedRange.lowerBound == change.replacedRange.lowerBound
                    insertionsAtLastStart = touching ? insertionsAtLastStart + last.lengthDelta : 0
                }
                deltaBeforeLast = deltaBefore
                last = change
                next += 1
            }
            guard let last else {
                results[endpoint.slot] = endpoint.offset
                continue
            }
            let moved = last.transform(endpoint.offset, bias: endpoint.bias)
            let kept = endpoint.bias == .backward && moved == last.replacedRange.lowerBound
            results[endpoint.slot] = moved + deltaBeforeLast - (kept ? insertionsAtLastStart : 0)
        }
        return ranges.indices.map { index in
            let lower = results[2 * index], upper = results[2 * index + 1]
            return lower..<max(lower, upper)
        }
    }

    private func move(_ range: Range<Int>, through edits: [TextEdit]) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        for edit in edits {
            lower = edit.transform(lower, bias: range.isEmpty ? .forward : .backward)
            upper = edit.transform(upper, bias: .forward)
        }
        return lower..<max(lower, upper)
    }

    // MARK: Undo

    /// Whether there is an edit to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Undoes the last step: the text is restored exactly, and the selections it had.
    public func undo() {
        guard openGroup == nil, let group = undoStack.popLast() else { return }
        let before = text
        text = group.before
        // The inverse edits, from the last made to the first.
        let inverse = group.edits.reversed().map { edit in
            TextEdit(replacedRange: edit.insertedRange, insertedCount: edit.replacedRange.count)
        }
        commit(Array(inverse), before: before, kind: .undo,
               restoring: (group.selectionsBefore, group.primaryBefore, group.trackedBefore))
        redoStack.append(group)
    }

    /// Redoes the last undone step.
    public func redo() {
        guard openGroup == nil, let group = redoStack.popLast() else { return }
        let before = text
        text = group.after
        commit(group.edits, before: before, kind: .redo,
               restoring: (group.selectionsAfter, group.primaryAfter, group.trackedAfter))
        undoStack.append(group)
    }
}
