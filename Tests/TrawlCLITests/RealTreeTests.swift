import Foundation
import Testing

/// What real trees hold and what users type: devices, FIFOs, late NUL bytes, hard links,
/// read-only files, names that are not UTF-8, UTF-16 and BOMs, link loops, huge numbers and
/// attached option values. Each case is a behaviour a report found broken.
@Suite struct RealTreeTests {
    let folder: URL
    init() throws {
        folder = scratchURL("real")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    func fileType(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    // MARK: Data

    @Test(.enabled(if: getuid() == 0, "making a device node needs root"))
    func devicesAreNeverWritten() throws {
        let device = folder.appendingPathComponent("null-copy").path
        // Device 1,3 (what /dev/null is on Linux); makedev is a macro Swift does not import.
        #expect(mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
        let named = try trawl(["replace", "--write", "x*", "y", device], limit: 60)
        #expect(named.stderr.contains("null-copy: not a regular file (character device); left alone"), "\(named.stderr)")
        #expect(named.stderr.contains("0 files changed"))
        #expect(fileType(device) == S_IFCHR)
        let strict = try trawl(["replace", "--write", "--strict", "x*", "y", device], limit: 60)
        #expect(strict.status == 2)
        // Met in a walk: not even read.
        let walked = try trawl(["replace", "--write", "x*", "y", "--hidden", "--no-ignore", folder.path], limit: 60)
        #expect(walked.status == 1)
        #expect(fileType(device) == S_IFCHR)
    }

    @Test func aFIFOInATreeNeitherHangsNorIsWritten() throws {
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o644) == 0)
        _ = try write("text.txt", "needle\n")
        let find = try trawl(["find", "needle", folder.path], limit: 60)
        #expect(find.status == 0 && find.stdout.hasSuffix("text.txt:needle\n"))
        let replace = try trawl(["replace", "--write", "needle", "pin", folder.path], limit: 60)
        #expect(replace.status == 0)
        #expect(fileType(fifo) == S_IFIFO)
        // Named explicitly it is refused for writing (and not opened, so nothing waits for a writer).
        let named = try trawl(["replace", "--write", "x", "y", fifo], limit: 60)
        #expect(named.status == 1 && named.stderr.contains("not a regular file (FIFO)"), "\(named.stderr)")
    }

    @Test func aSocketIsReportedAndLeftAlone() throws {
        let path = folder.appendingPathComponent("sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let run = try trawl(["replace", "--write", "x", "y", path], limit: 60)
        #expect(run.stderr.contains("not a regular file (socket)"), "\(run.stderr)")
        #expect(fileType(path) == S_IFSOCK)
    }

    /// Another program truncates and refills a file over and over while it is searched (memory-
    /// mapped, as files over a megabyte are): no run may die of SIGBUS.
    @Test func aFileShrinkingDuringSearchesNeverCrashesTrawl() throws {
        let url = try write("rotating.log", "")
        let text = Array(String(repeating: "a log line with a needle in it\n", count: 200_000).utf8)
        let descriptor = open(url.path, O_WRONLY)
        defer { close(descriptor) }
        // A thread of its own (not a task: the test's blocking waits could starve the pool).
        let stop = Flag(), firstRound = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let rotator = Thread {
            var rounds = 0
            while !stop.isSet {
                ftruncate(descriptor, 4096)
                _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                rounds += 1
                if rounds == 1 { firstRound.signal() }
            }
            finished.signal()
        }
        rotator.start()
        firstRound.wait()
        for _ in 0..<30 {
            let run = try trawl(["find", "-c", "needle", url.path], limit: 60)
            #expect([0, 1, 2].contains(run.status), "ended with \(run.status): \(run.stderr)")
        }
        stop.set()
        finished.wait()
    }

    @Test func aNulPastTheFirstBlockMakesTheFileBinary() throws {
        let text = String(repeating: "needle in text\n", count: 1000) + "\u{0}needle\n"
        let url = try write("late-binary.dat", text)
        let before = try bytes(url)
        let replace = try trawl(["replace", "--write", "needle", "pin", folder.path])
        #expect(replace.status == 1)
        #expect(try bytes(url) == before)
        let named = try trawl(["replace", "--write", "needle", "pin", url.path])
        #expect(named.stderr.contains("binary file (NUL byte at offset 15000)"), "\(named.stderr)")
        #expect(try bytes(url) == before)
        #expect(try trawl(["find", "-l", "needle", folder.path]).status == 1)
    }

    @Test func hardLinkedFilesNeedConsent() throws {
        let url = try write("linked.txt", "alpha\n")
        let other = folder.appendingPathComponent("other-name.txt")
        #expect(link(url.path, other.path) == 0)
        let refused = try trawl(["replace", "--write", "alpha", "omega", url.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("has 2 hard links; left untouched (--break-hardlinks"), "\(refused.stderr)")
        #expect(try String(contentsOf: url, encoding: .utf8) == "alpha\n")
        let broken = try trawl(["replace", "--write", "--break-hardlinks", "alpha", "omega", url.path])
        #expect(broken.status == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) == "omega\n")
        #expect(try String(contentsOf: other, encoding: .utf8) == "alpha\n")
    }

    @Test func jsonSaysWhetherEachWriteWasApplied() throws {
        let locked = try write("locked.txt", "alpha\n")
        let open = try write("open.txt", "alpha\n")
        #expect(chmod(locked.path, 0o444) == 0)
        let run = try trawl(["replace", "--write", "--json", "alpha", "omega", folder.path])
        #expect(run.status == 2)
        let changes = run.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String == "change" }
        let applied = Dictionary(uniqueKeysWithValues: changes.map {
            let data = $0["data"] as! [String: Any]
            return (((data["path"] as! [String: Any])["text"] as! String).components(separatedBy: "/").last!, data["applied"] as! Bool)
        })
        #expect(applied == ["locked.txt": false, "open.txt": true])
        #expect(try String(contentsOf: locked, encoding: .utf8) == "alpha\n")
        #expect(try String(contentsOf: open, encoding: .utf8) == "omega\n")
    }

    // MARK: Hangs and crashes

    @Test func longLinesPrintWhole() throws {
        let line = String(repeating: "needle ", count: 300_000)
        let url = try write("long.txt", line + "\nshort needle\n")
        let run = try trawl(["find", "-N", "needle", url.path], limit: 120)
        #expect(run.status == 0)
        #expect(run.stdout == line + "\nshort needle\n")
        let json = try trawl(["find", "--json", "needle", url.path], limit: 120)
        let match = try #require(json.stdoutLines.dropFirst().first)
        let object = try JSONSerialization.jsonObject(with: Data(match.utf8)) as! [String: Any]
        #expect(((object["data"] as! [String: Any])["submatches"] as! [Any]).count == 300_000)
        // Plain output needs one match a line, but --stats still counts every match.
        let stats = try trawl(["find", "-N", "--stats", "needle", url.path], limit: 120)
        #expect(stats.stdout == run.stdout)
        #expect(stats.stderr.contains("300001 matches, 2 matched lines"), "\(stats.stderr)")
    }

    @Test func hugeNumbersAreCheckedOrHarmless() throws {
        _ = try write("a.txt", "one\ntwo\n")
        let size = try trawl(["find", "--max-filesize", "34359738368G", "x", folder.path])
        #expect(size.status == 2 && size.stderr.contains("too large"))
        let context = try trawl(["find", "-N", "-A", "9223372036854775807", "one", folder.appendingPathComponent("a.txt").path], limit: 60)
        #expect(context.stdout == "one\ntwo\n")
        let negative = try trawl(["find", "-A=-1", "one", folder.path])
        #expect(negative.status == 2)
    }

    // MARK: Coverage that disappeared silently

    @Test func namesThatAreNotUTF8AreSearchedPrintedAndWritten() throws {
        let folderName = "dir-\u{FF}".data(using: .isoLatin1)!, fileName = "f-\u{FE}.txt".data(using: .isoLatin1)!
        // Build the raw byte path by hand: Foundation's String APIs would re-encode the names.
        let rawDirectory = Array(folder.path.utf8) + [0x2F] + [UInt8](folderName)
        let rawFile = rawDirectory + [0x2F] + [UInt8](fileName)
        #expect((rawDirectory + [0]).withUnsafeBufferPointer { mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755) } == 0)
        let descriptor = (rawFile + [0]).withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(descriptor >= 0)
        _ = Array("needle\n".utf8).withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let find = try trawl(["find", "needle", folder.path])
        #expect(find.status == 0, "\(find.stderr)")
        #expect(find.output == rawFile + Array(":needle\n".utf8), "printed byte for byte")
        let json = try trawl(["find", "--json", "needle", folder.path])
        #expect(json.stdout.contains("\"path\":{\"bytes\":\""))
        let replace = try trawl(["replace", "--write", "needle", "pin", folder.path])
        #expect(replace.status == 0, "\(replace.stderr)")
        #expect(replace.stderr.contains("1 file changed"))
        let check = try trawl(["find", "-c", "pin", folder.path])
        #expect(check.output == rawFile + Array(":1\n".utf8))
    }

    @Test func utf16AndLatin1FilesAreReportedNotSilentlySkipped() throws {
        let utf16 = folder.appendingPathComponent("wide.txt")
        try Data([0xFF, 0xFE] + Array("needle\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: utf16)
        let latin1 = folder.appendingPathComponent("latin.txt")
        try Data([0x63, 0x61, 0x66, 0xE9, 0x20] + Array("needle\n".utf8)).write(to: latin1)
        let before = (try bytes(utf16), try bytes(latin1))
        let find = try trawl(["find", "needle", folder.path])
        #expect(find.status == 1)
        #expect(find.stderr.contains("wide.txt: UTF-16 text (little-endian byte-order mark); skipped"), "\(find.stderr)")
        #expect(find.stderr.contains("latin.txt: not valid UTF-8 (first bad byte at offset 3); skipped"))
        let replace = try trawl(["replace", "--write", "needle", "pin", folder.path])
        #expect(replace.status == 1)
        #expect(replace.stderr.contains("wide.txt: UTF-16 text"))
        #expect((try bytes(utf16), try bytes(latin1)) == before)
    }

    @Test func linkLoopsAndBrokenLinksAreReportedWithFollow() throws {
        _ = try write("d/file.txt", "needle\n")
        #expect(symlink("..", folder.appendingPathComponent("d/up").path) == 0)
        #expect(symlink("nowhere", folder.appendingPathComponent("broken").path) == 0)
        let run = try trawl(["find", "-L", "needle", folder.path], limit: 60)
        #expect(run.stdout.hasSuffix("d/file.txt:needle\n"))
        #expect(run.stderr.contains("d/up: file system loop found"), "\(run.stderr)")
        #expect(run.stderr.contains("broken: broken symbolic link"))
        #expect(run.status == 2)
    }

    // MARK: Output a user relies on

    @Test func countsListedLinesAndJSONAgreeAtTheEndOfTheText() throws {
        let text = try write("ab.txt", "a\nb\n")
        let empty = try write("empty.txt", "")
        #expect(try trawl(["find", "-c", "^", text.path]).stdout == "2\n")
        #expect(try trawl(["find", "--count-matches", "$", text.path]).stdout == "2\n")
        #expect(try trawl(["find", "-N", "^", text.path]).stdout == "a\nb\n")
        let json = try trawl(["find", "--json", "$", text.path]).stdoutLines
        #expect(json.last?.contains("\"matched_lines\":2,\"matches\":2") == true)
        #expect(try trawl(["find", "-l", "^", empty.path]).status == 1)
        #expect(try trawl(["find", "-c", "^", empty.path]).stdout == "")
        #expect(try trawl(["find", "--count-matches", "^$", text.path]).status == 1, "no empty line after the final line break")
    }

    @Test func standardInputIsSearchedWhenPiped() throws {
        let run = try trawl(["find", "foo"], input: "foo\nbar\nfood\n")
        #expect(run.status == 0)
        #expect(run.stdout == "foo\nfood\n")
        #expect(try trawl(["find", "-c", "o"], input: "foo\nbar\nfood\n").stdout == "2\n")
    }

    @Test func attachedValuesAndUsageErrors() throws {
        let url = try write("lines.txt", "1\n2\nx\n3\n4\n")
        #expect(try trawl(["find", "-N", "-A1", "x", url.path]).stdout == "x\n3\n")
        #expect(try trawl(["find", "-N", "-C1", "x", url.path]).stdout == "2\nx\n3\n")
        #expect(try trawl(["find", "-N", "-B2", "x", url.path]).stdout == "1\n2\nx\n")
        let bad = try trawl(["find", "--no-such-flag", "x"])
        #expect(bad.status == 2 && bad.stderr.contains("Unknown option"))
        #expect(try trawl(["find", "--help"]).status == 0)
    }

    @Test func globsWithBracesRootsWithSlashesAndBOMs() throws {
        _ = try write("g/a.py", "needle\n")
        _ = try write("g/b.txt", "needle\n")
        _ = try write("g/c.md", "needle\n")
        let braces = try trawl(["find", "-l", "-g", "*.{py,txt}", "needle", "g"], in: folder)
        #expect(braces.stdoutLines == ["g/a.py", "g/b.txt"])
        let slash = try trawl(["find", "-l", "needle", "g/"], in: folder)
        #expect(slash.stdoutLines == ["g/a.py", "g/b.txt", "g/c.md"])
        let bom = folder.appendingPathComponent("bom.txt")
        try Data([0xEF, 0xBB, 0xBF] + Array("needle\r\nother\n".utf8)).write(to: bom)
        #expect(try trawl(["find", "-n", "^needle", bom.path]).output == Array("1:needle\r\n".utf8), "no BOM printed; ^ matches at the start")
        let replaced = try trawl(["replace", "--write", "^needle", "pin", bom.path])
        #expect(replaced.status == 0)
        #expect(try bytes(bom) == [0xEF, 0xBB, 0xBF] + Array("pin\r\nother\n".utf8), "the BOM is kept")
    }

    @Test func anEmptyPatternIsADiagnosticNotEveryLine() throws {
        let url = try write("three.txt", "a\n\nb\n")
        for arguments in [["find", "-N", "-F", ""], ["find", "-N", ""], ["replace", "-F", "", "x"]] {
            let run = try trawl(arguments + [url.path])
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.contains("the pattern is empty"), "\(arguments)")
        }
        #expect(try bytes(url) == Array("a\n\nb\n".utf8))
    }

    @Test func ignoreFilesAboveTheRootApplyOutsideARepository() throws {
        _ = try write("t/a/foo/x", "test\n")
        _ = try write("t/a/y", "test\n")
        _ = try write("t/.ignore", "foo\n")
        let run = try trawl(["find", "test"], in: folder.appendingPathComponent("t/a"))
        #expect(run.stdout == "y:test\n")
    }

    @Test func aHiddenFileKeptByANegationIsSearched() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        _ = try write(".gitignore", "!.foo\n")
        _ = try write(".foo", "needle\n")
        _ = try write(".bar", "needle\n")
        #expect(try trawl(["find", "-l", "needle"], in: folder).stdoutLines == [".foo"])
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable { // guarded by `lock`
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
