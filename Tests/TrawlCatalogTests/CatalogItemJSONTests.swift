import Testing
import Foundation
import TrawlTestSupport
@testable import TrawlCatalog

/// The direct reading of item lines against the reading through `JSONValue`.
@Suite struct CatalogItemJSONTests {
    static func randomString(_ random: inout SeededGenerator) -> String {
        let pieces = ["a", "tool", " ", "é", "日本", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "\\/", "\\t", "\\x", "\\u12", "\u{1}"]
        var text = "\""
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            // Mostly plain text; bad escapes and control characters now and then.
            let piece = pieces[Int.random(in: 0..<(Int.random(in: 0..<10, using: &random) == 0 ? pieces.count : 10), using: &random)]
            text += piece
        }
        return text + (Int.random(in: 0..<40, using: &random) == 0 ? "" : "\"")
    }

    static func randomScalar(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return "null"
        case 1: return ["12", "-3.5e2", "0", "1.", "-"].randomElement(using: &random)!
        case 2: return ["true", "false", "nul"].randomElement(using: &random)!
        case 3: return "[\((0..<Int.random(in: 0...3, using: &random)).map { _ in Bool.random(using: &random) ? randomString(&random) : "7" }.joined(separator: ", "))]"
        case 4: return "{\"k\": \(randomString(&random))}"
        case 5: return "[null]"
        default: return randomString(&random)
        }
    }

    static func randomObject(_ random: inout SeededGenerator, names: [String]) -> String {
        if Int.random(in: 0..<15, using: &random) == 0 { return ["null", "[]", "\"x\"", "{"].randomElement(using: &random)! }
        let members = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            "\"\(names.randomElement(using: &random)!)\": \(randomScalar(&random))"
        }
        return "{" + members.joined(separator: Bool.random(using: &random) ? ", " : ",") + "}"
    }

    static func randomLine(_ random: inout SeededGenerator) -> String {
        var members: [String] = []
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:
                let id = Int.random(in: 0..<10, using: &random) == 0 ? randomScalar(&random) : (Bool.random(using: &random) ? "\"p\(Int.random(in: 0..<9, using: &random))\"" : "42")
                members.append("\"id\": \(id)")
            case 2, 3: members.append("\"fields\": \(randomObject(&random, names: ["title", "body", "title", "notes"]))")
            case 4, 5: members.append("\"attributes\": \(randomObject(&random, names: ["section", "tags", "tags", "kind"]))")
            case 6: members.append("\"extra\": \(randomObject(&random, names: ["a", "b"]))")
            default: members.append("\"id\": \"first\"")
            }
        }
        var line = " {" + members.joined(separator: ", ") + "} "
        switch Int.random(in: 0..<20, using: &random) {
        case 0: line.removeLast(Int.random(in: 1...min(4, line.count), using: &random))
        case 1: line += "x"
        case 2: line = "\t" + line + "\r"
        default: break
        }
        return line
    }

    @Test func theDirectReadingAgreesWithTheGeneralOne() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 2026))
        var accepted = 0, direct = 0
        for _ in 0..<(20_000 * PropertyTestSettings.scale) {
            let line = Self.randomLine(&random)
            let general = try? CatalogItem(jsonValueLine: line)
            if general != nil { accepted += 1 }
            guard let item = CatalogItem.directly(line) else { continue }
            direct += 1
            #expect(item == general, "\(line)")
        }
        // The direct reading takes most good lines, else it is not the fast path it is for. It
        // leaves to the general one those whose badly typed member a later duplicate replaces.
        #expect(direct * 5 >= accepted * 4, "\(direct) of \(accepted) accepted lines read directly")
        #expect(accepted > 2000)
    }

    @Test func theLinesOfTheBundledCatalogAreReadDirectly() throws {
        let text = try String(contentsOf: fixturesDirectory.appendingPathComponent("catalog/packages.jsonl"), encoding: .utf8)
        for line in text.split(separator: "\n") {
            let item = CatalogItem.directly(String(line))
            #expect(item != nil && item == (try? CatalogItem(jsonValueLine: String(line))), "\(line)")
        }
    }
}
