#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlCatalog
import TrawlFiles
import TrawlText
import TrawlSearchable

/// `trawl catalog pick`: search as you type on the terminal, built only on the ``SearchField``
/// and ``Catalog`` APIs (a proof that a host needs nothing else). Results update per keystroke;
/// Tab takes the first suggestion; tokens show as pills and Backspace on empty text removes the
/// last; Ctrl-S switches scope; Up and Down move the selection; Enter submits and prints the chosen
/// id on standard output; Esc dismisses (exit status 1). The screen is drawn on /dev/tty, so the
/// id can be captured: `id=$(trawl catalog pick)`.
package struct CatalogPickRun: Sendable {
    package var folder: FilePath = CatalogStore.defaultFolder
    package var text = ""
    /// Whether query words also match inside the catalog's words.
    package var matchesInsideWords = false

    package init() {}

    /// Runs it; returns the exit code (0 an item chosen, 1 dismissed, 2 error, damage the
    /// searches ran into included).
    package func run() -> Int32 {
        guard let catalog = loadStoredCatalog(from: folder) else { return 2 }
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0, isatty(tty) == 1 else {
            Console.error("catalog pick needs a terminal; use trawl catalog search in scripts")
            return 2
        }
        defer { close(tty) }
        var saved = termios()
        tcgetattr(tty, &saved)
        var raw = saved
        cfmakeraw(&raw)
        raw.c_oflag |= tcflag_t(OPOST | ONLCR) // keep "\n" meaning a new line
        tcsetattr(tty, TCSAFLUSH, &raw)
        let screen = Screen(descriptor: tty)
        screen.write("\u{1B}[?1049h") // the alternate screen: the shell's screen comes back after
        let chosen = MainActor.assumeIsolated {
            var picker = Picker(catalog: catalog, screen: screen, text: text, matchesInsideWords: matchesInsideWords)
            return picker.loop()
        }
        screen.write("\u{1B}[?1049l")
        tcsetattr(tty, TCSAFLUSH, &saved)
        if reportsDamage(of: catalog, in: folder) { return 2 }
        guard let chosen else { return 1 }
        Console.write(chosen + "\n")
        return 0
    }
}

/// Writes to and reads keys from the terminal.
struct Screen: Sendable {
    let descriptor: Int32

    func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { PlatformCalls.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue }; return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The terminal's size in rows and columns (24 × 80 when it does not say).
    var size: (rows: Int, columns: Int) {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    enum Key: Equatable {
        case text(String), backspace, tab, enter, escape, up, down, switchScope, interrupt, end
    }

    /// The next key; an escape sequence (an arrow) counts as one key, and a paste or fast typing
    /// read at once yields its keys one by one.
    func key(_ pending: inout [UInt8]) -> Key {
        if pending.isEmpty, !fill(&pending) { return .end }
        let first = pending.removeFirst()
        switch first {
        case 0x1B:
            if pending.isEmpty {
                // A lone Esc, unless the rest of a sequence follows at once.
                guard fillSoon(&pending) else { return .escape }
            }
            return sequence(&pending)
        case 0x7F, 0x08: return .backspace
        case 0x09: return .tab
        case 0x0D, 0x0A: return .enter
        case 0x13: return .switchScope
        case 0x03, 0x04: return .interrupt
        case 0x00..<0x20: return key(&pending)
        default:
            // Printable text up to the next control byte. A letter whose bytes came in two
            // reads waits for the rest (the terminal sends it at once); bytes that are no UTF-8
            // are dropped, not typed as U+FFFD.
            var text = [first]
            while true {
                while let next = pending.first, next >= 0x20, next != 0x7F {
                    text.append(pending.removeFirst())
                }
                guard pending.isEmpty, Self.endsInsideAScalar(text), fillSoon(&pending) else { break }
            }
            var typed = String.UnicodeScalarView()
            var parser = Unicode.UTF8.ForwardParser()
            var bytes = text.makeIterator()
            parsing: while true {
                switch parser.parseScalar(from: &bytes) {
                case .valid(let encoded): typed.append(Unicode.UTF8.decode(encoded))
                case .error: continue
                case .emptyInput: break parsing
                }
            }
            return typed.isEmpty ? key(&pending) : .text(String(typed))
        }
    }

    /// Whether `bytes` end with the start of a UTF-8 scalar whose other bytes are still to come.
    static func endsInsideAScalar(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        for back in 1...Swift.min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard UTF8Bytes.isContinuation(byte) else {
                // (0xF8 and above lead nothing: no wait for them.)
                return byte < 0xF8 && UTF8Bytes.scalarLength(lead: byte) > back
            }
        }
        return false
    }

    /// Reads into `pending` what the terminal sends within 30 ms (the rest of what a key sends at
    /// once); false when nothing came. A lone lead byte (a Latin-1 terminal's é) waits no longer.
    private func fillSoon(_ pending: inout [UInt8]) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 30) > 0 && fill(&pending)
    }

    /// Reads what the terminal has into `pending`; false at the end of input.
    private func fill(_ pending: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 256) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            pending += buffer[0..<count]
            return true
        }
    }

    /// The rest of an escape sequence after ESC: arrows are keys, anything else is skipped.
    private func sequence(_ pending: inout [UInt8]) -> Key {
        guard pending.count >= 2, pending[0] == 0x5B || pending[0] == 0x4F else { return .escape }
        let final = pending[1]
        pending.removeFirst(2)
        switch final {
        case 0x41: return .up
        case 0x42: return .down
        default:
            // Parameters of a longer sequence (such as ESC [ 1 ; 5 C): skip to its final byte.
            var byte = final
            while byte < 0x40, !pending.isEmpty { byte = pending.removeFirst() }
            return key(&pending)
        }
    }
}

/// The pick loop: keys into the field, the field into a query, results onto the screen.
@MainActor
struct Picker {
    let catalog: Catalog
    let screen: Screen
    let field = SearchField<CatalogFilter, String>(prompt: "Search the catalog")
    var searcher = CatalogSearcher()
    var results: CatalogResults?
    var selection = 0
    var pending: [UInt8] = []
    let matchesInsideWords: Bool

    init(catalog: Catalog, screen: Screen, text: String, matchesInsideWords: Bool = false) {
        self.catalog = catalog
        self.matchesInsideWords = matchesInsideWords
        self.screen = screen
        field.deriveSuggestions(from: catalog)
        field.scopeActivation = .onSearchPresentation
        if let attribute = catalog.scopeAttribute {
            var all = CatalogSearcher()
            let values = all.search(CatalogQuery(limit: 0, facets: [attribute]), in: catalog).facets[attribute] ?? []
            field.scopes = values.prefix(8).map(\.value)
        }
        field.isPresented = true
        field.text = text
    }

    /// Returns the chosen id, or nil when dismissed.
    mutating func loop() -> String? {
        while true {
            search()
            draw()
            switch screen.key(&pending) {
            case .text(let typed):
                field.text += typed
            case .backspace:
                if field.text.isEmpty { if let last = field.tokens.last { field.removeToken(id: last.id) } } else { field.text.removeLast() }
            case .tab:
                if let suggestion = field.suggestions.first(where: { $0.completion != nil }) {
                    field.choose(suggestion) // fills the field; picking goes on
                }
            case .switchScope:
                guard !field.scopes.isEmpty else { break }
                if let scope = field.scope, let index = field.scopes.firstIndex(of: scope) {
                    field.scope = index + 1 < field.scopes.count ? field.scopes[index + 1] : nil
                } else {
                    field.scope = field.scopes.first
                }
            case .up:
                selection = max(0, selection - 1)
            case .down:
                selection = min(max(0, (results?.hits.count ?? 1) - 1), selection + 1)
            case .enter:
                guard let hits = results?.hits, !hits.isEmpty else { break }
                field.submit()
                return hits[min(selection, hits.count - 1)].id
            case .escape, .interrupt, .end:
                field.dismissSearch()
                return nil
            }
        }
    }

    private mutating func search() {
        var filters = field.tokens
        if let scope = field.scope, let attribute = catalog.scopeAttribute { filters.append(CatalogFilter(attribute, scope)) }
        let rows = max(1, screen.size.rows - 5)
        let previous = results?.hits.first?.id
        results = searcher.search(CatalogQuery(text: field.text, filters: filters, limit: rows, facets: [], matchesInsideWords: matchesInsideWords), in: catalog)
        if results?.hits.first?.id != previous { selection = 0 }
    }

    private func draw() {
        let (_, columns) = screen.size
        let style = Style(enabled: true)
        var frame = "\u{1B}[H\u{1B}[2J"
        // The field: tokens as pills, then the text (or the prompt, dimmed).
        var line = "> "
        // Catalog values (tokens, scopes, suggestions, ids, titles) are shown printable: an escape
        // sequence in one would otherwise reach the terminal.
        let printable = CatalogSearchRun.printableString
        for token in field.tokens { line += "\u{1B}[7m \(printable(token.description)) \u{1B}[0m " }
        line += field.text.isEmpty && field.tokens.isEmpty ? "\u{1B}[2m\(field.prompt)\u{1B}[0m" : printable(field.text)
        frame += line + "\n"
        if field.isScopeBarVisible {
            let names = [nil] + field.scopes.map(Optional.some)
            frame += "  scope (Ctrl-S): " + names.map { name in
                let label = printable(name ?? "all")
                return name == field.scope ? "\u{1B}[7m \(label) \u{1B}[0m" : " \(label) "
            }.joined(separator: " ") + "\n"
        }
        if field.showsSuggestions(in: .menu) {
            frame += "  tab: " + field.suggestions.prefix(5).map { printable($0.label) }.joined(separator: " | ") + "\n"
        }
        if let results {
            frame += "  \(results.matchCount) match\(results.matchCount == 1 ? "" : "es")\n"
            let titleField = catalog.fields.first?.name ?? "title"
            for (index, hit) in results.hits.enumerated() {
                let title = CatalogSearchRun.highlighted(hit.item.fields[titleField] ?? "", hit.highlights[titleField] ?? [], style: style)
                var row = (index == selection ? "\u{1B}[1m> " : "  ") + printable(hit.id)
                row += "\u{1B}[0m  " + String(decoding: title, as: UTF8.self)
                frame += TerminalColumns.fitted(row, columns: columns) + "\u{1B}[0m\n"
            }
        }
        // The cursor back at the end of the field's text.
        let visible = 2 + field.tokens.reduce(0) { $0 + $1.description.count + 3 } + (field.text.isEmpty && field.tokens.isEmpty ? 0 : field.text.count)
        frame += "\u{1B}[1;\(visible + 1)H"
        screen.write(frame)
    }
}
