import Foundation

/// The Swift code blocks of a DocC article (its path relative to the package), without those
/// that need SwiftUI: each must appear, line for line, in the test file that compiles it.
public func documentationSamples(_ article: String) throws -> [[String]] {
    let text = try String(contentsOf: packageDirectory.appendingPathComponent(article), encoding: .utf8)
    var blocks: [[String]] = [], current: [String]? = nil
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```swift") { current = []; continue }
        if line.hasPrefix("```"), let block = current {
            let swiftUI = ["VStack", "List(", ".searchable(", "TextEditor("].contains { name in block.contains { $0.contains(name) } }
            if !swiftUI { blocks.append(block) }
            current = nil
            continue
        }
        current?.append(String(line))
    }
    return blocks
}

/// Whether `block`'s lines, trimmed and without blank ones, appear in order and together in the
/// source file at `path` (relative to the package), trimmed the same way.
public func source(_ path: String, contains block: [String]) throws -> Bool {
    let trimmed = { (lines: [String]) in lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    let source = trimmed(try String(contentsOf: packageDirectory.appendingPathComponent(path), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    let wanted = trimmed(block)
    guard !wanted.isEmpty, wanted.count <= source.count else { return wanted.isEmpty }
    return (0...(source.count - wanted.count)).contains { start in Array(source[start..<(start + wanted.count)]) == wanted }
}
