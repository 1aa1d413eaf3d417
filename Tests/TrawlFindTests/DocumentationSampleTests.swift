import Testing
import TrawlFind
import TrawlTestSupport
import TrawlText
import TrawlSearchable

/// The code samples of TrawlFind's articles, compiled and run here as they are written there.
@MainActor @Suite struct DocumentationSampleTests {
    static let file = "Tests/TrawlFindTests/DocumentationSampleTests.swift"

    @Test(arguments: ["Sources/TrawlFind/TrawlFind.docc/AddFindAndReplaceToATextEditor.md",
                      "Sources/TrawlSearchable/TrawlSearchable.docc/ModelSwiftUIFindPolicies.md"])
    func everySampleIsCompiledHere(article: String) throws {
        let samples = try documentationSamples(article)
        #expect(!samples.isEmpty)
        for sample in samples { #expect(try source(Self.file, contains: sample), "\(sample.first ?? "")") }
    }

    @Test func addFindAndReplaceToATextEditor() throws {
        let document = TextDocument("let total = price * count\nlet tax = total * rate\n")

        // The user typed in the view: a UTF-16 range and its new text.
        func viewDidEdit(utf16 range: Range<Int>, newText: String) {
            let start = document.text.utf8Offset(ofUTF16: range.lowerBound)
            let end = document.text.utf8Offset(ofUTF16: range.upperBound)
            document.replace(start..<end, with: newText)
        }

        // The document changed (a replacement, an undo): the view follows, in UTF-16.
        let observer = document.addObserver { document, change in
            for edit in change.edits {
                let start = change.before.utf16Offset(ofUTF8: edit.replacedRange.lowerBound)
                let end = change.before.utf16Offset(ofUTF8: edit.replacedRange.upperBound)
                _ = (start..<end, edit.insertedCount) // apply to the view's storage here
            }
        }

        let navigator = FindNavigator(document: document)
        navigator.present(replace: true)
        navigator.query = "total"
        let count = navigator.matchCount                // 2
        try navigator.findNext()                        // selects the first match
        let position = navigator.positionDescription    // "1 of 2"
        #expect(count == 2 && position == "1 of 2")

        let visible = 0..<30 // the visible range, in UTF-8 offsets
        let first = navigator.matches.firstIndex(endingAfter: visible.lowerBound)
        var highlighted: [Range<Int>] = []
        var index = first
        while index < navigator.matchCount, navigator.matches[index].lowerBound < visible.upperBound {
            highlighted.append(navigator.matches[index])
            index += 1
        }
        #expect(highlighted == [4..<9])

        navigator.replacement = "subtotal"
        let replaced = try navigator.replaceAll()       // 2
        document.undo()                                 // both come back at once
        #expect(replaced == 2 && document.text.description == "let total = price * count\nlet tax = total * rate\n")

        viewDidEdit(utf16: 4..<9, newText: "sum")
        #expect(document.text.description.hasPrefix("let sum = "))
        document.removeObserver(observer)
    }

    @Test func modelSwiftUIFindPolicies() {
        let tree = ScopeTree()
        let stack = tree.addContainer(to: tree.root)
        let notes = tree.addEditor(FindNavigator(document: TextDocument("notes")), to: stack)
        let secret = tree.addEditor(FindNavigator(document: TextDocument("secret")), to: stack)
        tree.setFindDisabled(true, on: secret)

        let presentation = tree.findNavigator(on: stack)
        presentation.isPresented = true
        let shown = tree.navigator(of: notes)?.isPresented       // true
        let hidden = tree.navigator(of: secret)?.isPresented     // false
        #expect(shown == true && hidden == false)

        let outer = ScopeTree()
        let window = outer.addContainer(to: outer.root)
        let pane = outer.addContainer(to: window)
        let editor = outer.addEditor(FindNavigator(document: TextDocument("text")), to: pane)
        outer.setFindDisabled(true, on: window)            // above the modifier on `pane`
        outer.findNavigator(on: pane).isPresented = true
        let presented = outer.navigator(of: editor)?.isPresented   // true
        #expect(presented == true)
    }
}
