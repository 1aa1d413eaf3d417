#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlStorage
import TrawlConcurrency

/// Writing to the standard streams, and what they are connected to.
package enum Console {
    package static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    package static var stderrIsTerminal: Bool { isatty(2) == 1 }
    package static var stdinIsTerminal: Bool { isatty(0) == 1 }

    /// Whether standard input is a pipe or a redirected file (not a terminal, not /dev/null or
    /// a closed descriptor): then `trawl replace` with no path filters it.
    package static var stdinIsPipedData: Bool {
        var status = stat()
        guard fstat(0, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFREG || type == S_IFSOCK
    }

    package static func write(_ bytes: [UInt8], to descriptor: Int32 = 1) {
        // A closed or full output ends the writing; there is nobody to tell.
        bytes.withUnsafeBytes { raw in try? FileDescriptor(rawValue: descriptor).writeAll(raw) }
    }

    package static func write(_ string: String, to descriptor: Int32 = 1) { write(Array(string.utf8), to: descriptor) }

    package static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32 = 1) {
        try? FileDescriptor(rawValue: descriptor).writeAll(UnsafeRawBufferPointer(bytes))
    }

    /// An error or warning line on stderr, prefixed with the program's name.
    package static func error(_ message: String) { write("trawl: \(message)\n", to: 2) }

    /// Reads all of standard input (what could be read, if reading fails part-way).
    package static func readStandardInput() -> [UInt8] { FileDescriptor.standardInput.readToEnd().bytes }
}

/// A progress line on stderr for runs longer than about a second, on a terminal only.
struct Progress {
    let enabled: Bool
    let start = monotonicNanoseconds()
    private(set) var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    mutating func update(files: Int, total: Int?, bytes: Int, matches: Int) {
        guard enabled, monotonicNanoseconds() - start > 1_000_000_000 else { return }
        shown = true
        let count = total.map { "\(files)/\($0)" } ?? String(files)
        Console.write("\r\u{1B}[Ktrawl: \(count) files, \(bytes / 1_000_000) MB, \(matches) matches", to: 2)
    }

    func finish() {
        if shown { Console.write("\r\u{1B}[K", to: 2) }
    }
}
