import SystemPackage
import TrawlFiles

/// A path as the output shows it. Paths are bytes and need not be UTF-8: standard output prints
/// them as they are (as ripgrep does, so they can be passed on), messages escape the bytes that
/// are not UTF-8, and JSON carries them as `{"bytes": base64}` (ripgrep's form).
struct DisplayPath: Sendable {
    /// The bytes printed in standard output.
    let bytes: [UInt8]

    /// A path as walked; an implicit root (`.`, when no path was given) is not shown.
    init(_ path: FilePath, implicitRoot: Bool) {
        let raw = path.bytes
        bytes = implicitRoot && raw.starts(with: [UInt8(ascii: "."), UInt8(ascii: "/")]) ? Array(raw.dropFirst(2)) : raw
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// For messages on standard error.
    var text: String { PathText.escaped(bytes) }

    /// Writes the JSON value ripgrep writes for a path.
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { writer in
            if String(validating: bytes, as: UTF8.self) != nil {
                writer.key("text")
                writer.string(bytes)
            } else {
                writer.member("bytes", base64(bytes))
            }
        }
    }

    /// The path relative to the tree for a diff header (`a/x.swift`): no `./`, no leading or
    /// doubled `/`.
    var diffPath: [UInt8] {
        var components: [[UInt8]] = []
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) where component != [UInt8(ascii: ".")] {
            components.append(Array(component))
        }
        return Array(components.joined(separator: [UInt8(ascii: "/")]))
    }
}

/// Base64 (RFC 4648, padded), for the rare non-UTF-8 path in JSON output.
func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        var value = 0
        for (position, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * position) }
        for position in 0..<4 {
            output.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
        }
        index += 3
    }
    return String(decoding: output, as: UTF8.self)
}
