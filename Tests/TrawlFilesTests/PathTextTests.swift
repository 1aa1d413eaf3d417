import Testing
import TrawlFiles
import TrawlTestSupport

/// Paths in messages: valid UTF-8 shown as it is (U+FFFD included), each byte of an invalid
/// sequence as `\xHH`; checked against Swift's own validation over random byte strings.
struct PathTextTests {
    @Test func validTextIsShownAsItIsAndOtherBytesEscaped() {
        #expect(PathText.escaped(Array("Sources/main.swift".utf8)) == "Sources/main.swift")
        #expect(PathText.escaped(Array("dé/ß/\u{FFFD}/🚀".utf8)) == "dé/ß/\u{FFFD}/🚀")
        #expect(PathText.escaped([0x61, 0xFF, 0x62]) == "a\\xFFb")
        #expect(PathText.escaped([0xC3, 0x28]) == "\\xC3(")
        #expect(PathText.escaped([0xE2, 0x82]) == "\\xE2\\x82")
        #expect(PathText.escaped([]) == "")
    }

    @Test func randomBytesAreShownWholeWhenValid() {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0x9A7E))
        let pieces: [[UInt8]] = [[0x61], [0x2F], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x9A, 0x80], [0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80]]
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 8) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            let shown = PathText.escaped(bytes)
            if let valid = String(validating: bytes, as: UTF8.self) {
                #expect(shown == valid)
            } else {
                #expect(shown.contains("\\x"), "\(bytes)")
            }
        }
    }
}
