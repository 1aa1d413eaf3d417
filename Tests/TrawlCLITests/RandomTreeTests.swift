import Foundation
import Testing
import TrawlTestSupport

/// `find` and `replace --write` over random trees: random names (any bytes but `/` and NUL, hidden
/// ones too), random contents (text, CRLF, BOMs, UTF-16, Latin-1, late NUL bytes, long lines, files
/// large enough to be memory-mapped), FIFOs, symbolic links (broken and looping) and hard links.
/// Neither may crash or hang; afterwards every text file holds exactly the oracle's replacement and
/// every other entry is exactly as it was.
@Suite struct RandomTreeTests {
    /// A path as raw bytes, for the C calls (names need not be UTF-8).
    struct RawPath: Hashable {
        var bytes: [UInt8]
        func appending(_ name: [UInt8]) -> RawPath { RawPath(bytes: bytes + [0x2F] + name) }
        func call<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
            (bytes + [0]).withUnsafeBufferPointer { body(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
        }
    }

    enum Entry: Equatable {
        case file([UInt8], links: Int)
        case fifo
        case link([UInt8])
        case folder
    }

    /// Every entry below `root` (without following links), by path.
    func scan(_ root: RawPath) -> [RawPath: Entry] {
        var result: [RawPath: Entry] = [:]
        guard let handle = root.call({ opendir($0) }) else { return result }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let path = root.appending(name)
            var status = stat()
            guard path.call({ lstat($0, &status) }) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                result[path] = .folder
                result.merge(scan(path)) { $1 }
            case S_IFIFO: result[path] = .fifo
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: 4096)
                let count = path.call { readlink($0, &target, target.count) }
                result[path] = .link(target[..<max(count, 0)].map { UInt8(bitPattern: $0) })
            default:
                let descriptor = path.call { open($0, O_RDONLY) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let got = read(descriptor, &buffer, buffer.count)
                    if got <= 0 { break }
                    bytes += buffer[..<got]
                }
                close(descriptor)
                result[path] = .file(bytes, links: Int(status.st_nlink))
            }
        }
        return result
    }

    func randomName(_ random: inout SeededGenerator) -> [UInt8] {
        let pieces: [[UInt8]] = [Array("a".utf8), Array("b".utf8), Array("x".utf8), Array(".".utf8), Array(" ".utf8), [0xFF], [0xC3, 0xA9],
                                 [0xE2, 0x82], Array("\n".utf8), Array("-".utf8), Array("_".utf8), Array("\\".utf8), Array("\"".utf8)]
        while true {
            let name = (0..<Int.random(in: 1...8, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            if name != [0x2E] && name != [0x2E, 0x2E] && name != Array(".git".utf8) { return name }
        }
    }

    func randomContent(_ random: inout SeededGenerator) -> [UInt8] {
        let words = ["ab", "a", "b", "abab", " ", "\n", "\r\n", "é", "日本", "😀", "xab", "ba"].map { Array($0.utf8) }
        func text(_ count: Int) -> [UInt8] { (0..<count).flatMap { _ in words.randomElement(using: &random)! } }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return []
        case 1: return [0xEF, 0xBB, 0xBF] + text(50)                                         // UTF-8 BOM
        case 2: return [0xFF, 0xFE] + Array("ab\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } // UTF-16
        case 3: return text(20) + [0xE9] + text(20)                                          // Latin-1 byte
        case 4: return text(Int.random(in: 3000...4000, using: &random)) + [0] + text(10)     // NUL past the first block
        case 5: return (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 6: return Array(String(repeating: "ab ", count: 200_000).utf8)                  // a long line
        case 7: return Array(repeating: UInt8(ascii: "x"), count: 1 << 20) + text(30)        // mapped for search
        default: return text(Int.random(in: 0...200, using: &random))
        }
    }

    func buildTree(_ root: RawPath, depth: Int, _ random: inout SeededGenerator, files: inout [RawPath]) {
        for _ in 0..<Int.random(in: 2...7, using: &random) {
            let path = root.appending(randomName(&random))
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<3 where depth < 3:
                if path.call({ mkdir($0, 0o755) }) == 0 { buildTree(path, depth: depth + 1, &random, files: &files) }
            case 3:
                _ = path.call { mkfifo($0, 0o644) }
            case 4:
                let target: [UInt8] = [Array("..".utf8), Array("nowhere".utf8), files.last.map { $0.bytes } ?? Array(".".utf8)]
                    .randomElement(using: &random)!
                _ = (target + [0]).withUnsafeBufferPointer { pointer in
                    path.call { symlink(UnsafeRawPointer(pointer.baseAddress!).assumingMemoryBound(to: CChar.self), $0) }
                }
            case 5:
                if let existing = files.randomElement(using: &random) { _ = existing.call { from in path.call { link(from, $0) } } }
            default:
                let descriptor = path.call { open($0, O_CREAT | O_EXCL | O_WRONLY, 0o644) }
                guard descriptor >= 0 else { continue }
                let content = randomContent(&random)
                _ = content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                files.append(path)
            }
        }
    }

    /// The oracle: `-F ab` replaced by `XY` in text files (UTF-8 without NUL, a UTF-8 BOM kept), no
    /// change anywhere else.
    func expected(_ entry: Entry) -> Entry {
        guard case .file(let bytes, let links) = entry, links == 1 else { return entry }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = bytes.starts(with: bom) ? Array(bytes.dropFirst(3)) : bytes
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || body.contains(0)
            || String(validating: body, as: UTF8.self) == nil { return entry }
        var output: [UInt8] = bytes.starts(with: bom) ? bom : []
        var index = 0
        while index < body.count {
            if index + 1 < body.count && body[index] == UInt8(ascii: "a") && body[index + 1] == UInt8(ascii: "b") {
                output += Array("XY".utf8)
                index += 2
            } else {
                output.append(body[index])
                index += 1
            }
        }
        return .file(output, links: links)
    }

    @Test func findAndReplaceOverRandomTrees() throws {
        var random = SeededGenerator(seed: PropertyTestSettings.seed(default: 0xF022_7EE5))
        for round in 0..<(6 * PropertyTestSettings.scale) {
            let base = scratchURL("fuzz")
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: base) }
            let root = RawPath(bytes: Array(base.path.utf8))
            var files: [RawPath] = []
            buildTree(root, depth: 0, &random, files: &files)
            let before = scan(root)

            for arguments in [["find", "-c", "--hidden", "--no-ignore", "-F", "ab"], ["find", "--json", "-L", "--hidden", "ab"],
                              ["find", "-n", "-C2", "--no-ignore", "a|b"]] {
                let run = try trawl(arguments + [base.path], limit: 120)
                #expect([0, 1, 2].contains(run.status), "round \(round): \(arguments) ended with \(run.status) (hung or crashed)\n\(run.stderr)")
            }
            #expect(scan(root) == before, "round \(round): find changed the tree")

            let run = try trawl(["replace", "--write", "--hidden", "--no-ignore", "-F", "ab", "XY", base.path], limit: 120)
            #expect([0, 1, 2].contains(run.status), "round \(round): replace ended with \(run.status) (hung or crashed)\n\(run.stderr)")
            let after = scan(root)
            #expect(Set(after.keys) == Set(before.keys), "round \(round): entries appeared or vanished")
            for (path, entry) in before {
                let wanted = expected(entry)
                if after[path] != wanted {
                    Issue.record("round \(round): \(String(decoding: path.bytes, as: UTF8.self)) is not what the oracle says")
                }
            }
        }
    }
}
