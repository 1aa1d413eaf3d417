import SystemPackage
import TrawlCatalog
import TrawlFiles
import TrawlStorage
import TrawlConcurrency

/// `trawl catalog build ITEMS.jsonl`: reads items (one JSON object per line), indexes them and
/// stores the catalog. Bad lines are reported with their number and skipped; the stored catalog
/// is replaced atomically, so a failed build leaves the previous one.
package struct CatalogBuildRun: Sendable {
    /// The JSON Lines file; "-" reads standard input.
    package var items: FilePath = "-"
    package var folder: FilePath = CatalogStore.defaultFolder
    /// Searched fields and weights in order; fields found in items but not named here follow,
    /// weight 1.
    package var fields: [CatalogField] = [CatalogField("title", weight: 2), CatalogField("body", weight: 1)]
    package var scopeAttribute: String? = "section"
    package var stats = false

    package init() {}

    /// Runs it; returns the exit code (0 built, 2 a line was bad or the catalog could not be written).
    package func run() -> Int32 {
        let start = monotonicNanoseconds()
        guard let read = readItemsFile(items) else { return 2 }
        let lines = CatalogLines(parsing: read, fields: fields)
        // Encoded without the word index, which a search's load builds.
        var encoded = CatalogFormat.encode(lines, fields: fields, scopeAttribute: scopeAttribute, expectedCount: lines.expectedCount)
        let summary = lines.summary
        if read.changedWhileMapped {
            Console.error("\(items): the file shrank while it was read; nothing stored")
            return 2
        }
        // A field that items have but no option named joins the searched fields: encode again
        // with it, from the catalog just encoded (rare: the usual fields are named or are the
        // defaults).
        if summary.fields != fields {
            do {
                encoded = CatalogFormat.encode(try CatalogFormat.decode(encoded.bytes).allItems, fields: summary.fields, scopeAttribute: scopeAttribute)
            } catch {
                Console.error("\(items): cannot store the items with the fields found in them: \(error)")
                return 2
            }
        }
        do {
            try CatalogStore.save(encoded: encoded, in: folder)
        } catch {
            Console.error("\(CatalogStore.path(in: folder)): cannot write the catalog: \(error)")
            return 2
        }
        for (line, reason) in summary.problems { Console.error("\(items):\(line): \(reason); line skipped") }
        if stats {
            Console.write("\(encoded.count) items from \(summary.itemCount) lines (\(summary.problems.count) skipped), fields \(summary.fields.map { "\($0.name)=\($0.weight)" }.joined(separator: ",")), "
                + "stored in \(CatalogStore.path(in: folder)), \(formatSeconds(monotonicNanoseconds() - start))\n")
        }
        return summary.problems.isEmpty ? 0 : 2
    }
}

/// The bytes of the JSON Lines file at `path` ("-": standard input), or nil after saying why
/// it cannot be read.
func readItemsFile(_ path: FilePath) -> FileBytes? {
    guard path != "-" else { return FileBytes(Console.readStandardInput()) }
    do {
        let descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
        return try descriptor.closeAfter { try FileBytes.read(descriptor) }
    } catch {
        Console.error("\(path): \(error)")
        return nil
    }
}

/// The catalog stored in `folder`, or nil after saying why it cannot be read.
func loadStoredCatalog(from folder: FilePath) -> Catalog? {
    do {
        return try CatalogStore.load(from: folder)
    } catch {
        Console.error("\(CatalogStore.path(in: folder)): cannot read the catalog: \(error) (build it with trawl catalog build)")
        return nil
    }
}

/// Whether the searches of `catalog`, stored in `folder`, ran into damage, after saying so: a
/// stored catalog's parts are checked as they are read, and results that may lack items are not
/// given as if whole.
func reportsDamage(of catalog: Catalog, in folder: FilePath) -> Bool {
    guard let damage = catalog.damage else { return false }
    Console.error("\(CatalogStore.path(in: folder)): cannot read the catalog: \(damage) (build it again with trawl catalog build)")
    return true
}

/// `trawl catalog search QUERY`: ranked results with highlights and facets, as text or JSON Lines.
package struct CatalogSearchRun: Sendable {
    package var folder: FilePath = CatalogStore.defaultFolder
    package var text = ""
    /// `attribute:value` tokens, all required.
    package var tokens: [String] = []
    /// A value of the catalog's scope attribute.
    package var scope: String?
    package var limit = 20
    package var facets: [String]?
    package var json = false
    package var color = false
    /// Whether query words also match inside the catalog's words (`office` finds `libreoffice`).
    package var matchesInsideWords = false

    package init() {}

    /// Runs it; returns the exit code (0 something matched, 1 nothing did, 2 error).
    package func run() -> Int32 {
        guard let catalog = loadStoredCatalog(from: folder) else { return 2 }
        keepUntilExit(catalog)
        var filters: [CatalogFilter] = []
        for token in tokens {
            guard let colon = token.firstIndex(of: ":"), colon != token.startIndex else {
                Console.error("--token \(token): expected attribute:value")
                return 2
            }
            let attribute = String(token[..<colon])
            // A misspelt attribute would otherwise match nothing, silently.
            guard catalog.attributes.contains(attribute) else {
                Console.error("--token \(token): \(Self.noAttribute(attribute, in: catalog))")
                return 2
            }
            filters.append(CatalogFilter(attribute, String(token[token.index(after: colon)...])))
        }
        for name in facets ?? [] where !catalog.attributes.contains(name) {
            Console.error("--facet \(name): \(Self.noAttribute(name, in: catalog))")
            return 2
        }
        if let scope {
            guard let attribute = catalog.scopeAttribute else {
                Console.error("--scope \(scope): this catalog has no scope attribute (build it with --scope-attribute)")
                return 2
            }
            filters.append(CatalogFilter(attribute, scope))
        }
        var searcher = CatalogSearcher()
        let results = searcher.search(CatalogQuery(text: text, filters: filters, limit: limit, facets: facets, matchesInsideWords: matchesInsideWords), in: catalog)
        if reportsDamage(of: catalog, in: folder) { return 2 }
        var output: [UInt8] = []
        if json {
            for (index, hit) in results.hits.enumerated() {
                output += JSONWriter.line { json in
                    json.object { json in
                        json.member("type", "result")
                        json.member("id", hit.id)
                        json.member("rank", index + 1)
                        json.member("fields", object: { json in
                            for (name, text) in hit.item.fields.sorted(by: { $0.key < $1.key }) { json.key(name); json.string(text) }
                        })
                        json.member("highlights", object: { json in
                            for (name, ranges) in hit.highlights.sorted(by: { $0.key < $1.key }) {
                                json.key(name)
                                json.array { json in
                                    for range in ranges {
                                        json.element()
                                        json.array { json in json.element(); json.number(range.lowerBound); json.element(); json.number(range.upperBound) }
                                    }
                                }
                            }
                        })
                        json.member("attributes", object: { json in
                            for (name, values) in hit.item.attributes.sorted(by: { $0.key < $1.key }) {
                                json.key(name)
                                json.array { json in for value in values { json.element(); json.string(value) } }
                            }
                        })
                    }
                }
            }
            output += JSONWriter.line { json in
                json.object { json in
                    json.member("type", "summary")
                    json.member("matches", results.matchCount)
                    json.member("partial", results.isPartial)
                    json.member("facets", object: { json in
                        for (name, values) in results.facets.sorted(by: { $0.key < $1.key }) {
                            json.key(name)
                            json.object { json in for value in values { json.key(value.value); json.number(value.count) } }
                        }
                    })
                }
            }
        } else {
            let style = Style(enabled: color)
            let titleField = catalog.fields.first?.name ?? "title"
            for hit in results.hits {
                output += style.path(Self.printable(hit.id))
                output += Array("\t".utf8)
                output += Self.highlighted(hit.item.fields[titleField] ?? "", hit.highlights[titleField] ?? [], style: style)
                output.append(0x0A)
            }
            var summary = "\(results.matchCount) match\(results.matchCount == 1 ? "" : "es")\(results.isPartial ? " (partial)" : "")"
            for (name, values) in results.facets.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
                summary += "; \(name): " + values.prefix(8).map { "\($0.value) \($0.count)" }.joined(separator: ", ")
                if values.count > 8 { summary += ", …" }
            }
            output += Array((summary + "\n").utf8)
        }
        Console.write(output)
        return results.matchCount > 0 ? 0 : 1
    }

    /// What to say of an attribute name the catalog lacks.
    static func noAttribute(_ name: String, in catalog: Catalog) -> String {
        let known = catalog.attributes.sorted()
        return "the catalog has no attribute '\(name)' (" + (known.isEmpty ? "it has none)" : "it has: \(known.joined(separator: ", ")))")
    }

    /// The bytes of `text` with control characters (an id's or a title's escape sequence, say;
    /// C1's U+0080–U+009F too, a CSI among them) shown as spaces, byte for byte, so that
    /// highlight ranges still apply.
    static func printable(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                bytes[index] = 0x20
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                bytes[index] = 0x20
                bytes[index + 1] = 0x20
            }
        }
        return bytes
    }

    /// `text` as ``printable(_:)`` shows it.
    static func printableString(_ text: String) -> String { String(decoding: printable(text), as: UTF8.self) }

    /// `text` with its highlighted ranges styled as matches; control characters shown as spaces,
    /// so one item stays on one line.
    static func highlighted(_ text: String, _ ranges: [Range<Int>], style: Style) -> [UInt8] {
        let bytes = printable(text)
        var output: [UInt8] = []
        var position = 0
        for range in ranges {
            output += bytes[position..<range.lowerBound]
            output += style.match(bytes[range])
            position = range.upperBound
        }
        output += bytes[position...]
        return output
    }
}
