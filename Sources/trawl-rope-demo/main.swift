// A small demonstration of the rope: load a file, edit it, and show the measures and offset
// conversions an editor needs. (The `trawl` command replaces this demo in the quick start.)
import Foundation
import TrawlText

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: trawl-rope-demo FILE")
    exit(2)
}
do {
    var rope = try Rope(contentsOfFile: path)
    func show(_ title: String) {
        let s = rope.summary
        print("== \(title): \(s.utf8) bytes, \(s.utf16) UTF-16 units, \(s.scalars) scalars, \(rope.lineCount) lines")
        for (number, line) in rope.lines().enumerated() { print(String(format: "%3d| ", number + 1) + line) }
    }
    show("loaded \(path)")
    let lineTwo = rope.utf8Range(ofLine: 1, includingLineBreak: false)
    let edit = rope.replace(lineTwo.lowerBound..<(lineTwo.lowerBound + 1), with: "Our")
    print("\n\(edit): replaced the first byte of line 2")
    let emoji = String(rope).utf8.firstIndex(of: 0xF0).map { String(rope).utf8.distance(from: String(rope).utf8.startIndex, to: $0) }
    if let emoji {
        let position = rope.utf16Position(ofUTF8: emoji)
        print("the emoji is at byte \(emoji) = line \(position.line + 1), UTF-16 column \(position.column)"
              + " = scalar \(rope.scalarOffset(ofUTF8: emoji))")
    }
    let snapshot = rope
    rope.append("Appended after a snapshot was taken.\n")
    print("snapshot still has \(snapshot.lineCount) lines; the rope now has \(rope.lineCount)\n")
    show("edited")
    if let violation = rope.invariantViolation() { print("invariant violated: \(violation)"); exit(1) }
} catch {
    print("error: \(error)")
    exit(2)
}
