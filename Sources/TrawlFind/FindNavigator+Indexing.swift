import TrawlIndex
import TrawlMatch
import TrawlText

extension FindNavigator {
    /// Documents at least this large get a trigram index (`DocumentIndex`), built in the
    /// background after their first search and used by later ones: below it a full search is fast
    /// enough that the index's memory (15% of the text) does not pay.
    public static let defaultIndexThreshold = 16 << 20

    /// Whether the document's trigram index is ready (the searches that follow use it).
    public var isIndexed: Bool { documentIndex != nil }

    /// Waits until a trigram index being built is ready.
    public func waitForIndex() async {
        await indexBuild?.value
    }

    /// Starts building the index of `text` when the document is large enough and has none.
    func startIndexingIfNeeded(_ text: Rope) {
        guard documentIndex == nil, indexBuild == nil, text.utf8Count >= indexThreshold else { return }
        pendingIndexChanges = []
        let build = Task.detached(priority: .utility) { DocumentIndex(text) }
        indexBuild = Task { [weak self] in
            let index = await build.value
            guard let self, self.indexBuild != nil else { return }
            self.documentIndex = index
            self.indexBuild = nil
        }
    }

    /// Notes a change for the index; it is applied when a search next needs the index (typing
    /// costs nothing here), or at once when many have piled up.
    func indexNote(_ change: TextDocument.Change) {
        guard documentIndex != nil || indexBuild != nil else { return }
        pendingIndexChanges.append((change.edits, change.before))
        if documentIndex != nil && pendingIndexChanges.count > 1024 { catchUpIndex() }
    }

    /// Applies the pending changes to the index.
    private func catchUpIndex() {
        guard var index = documentIndex, !pendingIndexChanges.isEmpty else { return }
        for (position, (edits, before)) in pendingIndexChanges.enumerated() {
            let after = position + 1 < pendingIndexChanges.count ? pendingIndexChanges[position + 1].before : document.text
            index.update(after: edits, from: before, to: after)
        }
        pendingIndexChanges = []
        documentIndex = index
    }

    /// The regions a search of the whole document can be limited to, when the index narrows it
    /// enough to pay (`DocumentIndex/searchRegions(for:in:)`).
    func indexedRegions(for matcher: any Matcher, in text: Rope) -> [Range<Int>]? {
        guard scopes == nil, documentIndex != nil else { return nil }
        catchUpIndex()
        return documentIndex?.searchRegions(for: matcher, in: text)
    }
}
