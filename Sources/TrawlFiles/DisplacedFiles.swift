#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SystemPackage
import TrawlStorage

/// The versions a run's rewrites displaced, held open (their names already removed) for a while
/// instead of let go at once.
///
/// A program that opened a file before it was replaced (an appender, a log writer) still writes
/// to the version that was displaced: after the switch its writes land in no file. No switch can
/// prevent that; holding the displaced versions until the run ends (or ``capacity`` are held)
/// catches the writes made meanwhile: such a version is copied beside the file as
/// `<name>.trawl-conflict-<pid>-<n>` and reported. Writes after that are beyond any check. A
/// version held has no name, so a run killed meanwhile leaves nothing behind.
public final class DisplacedFiles: Sendable {
    private struct Held: @unchecked Sendable { // the descriptors are this holder's alone
        let file: Int32
        /// The folder it was displaced from, open (a duplicate: the writer closes its own).
        let folder: Int32
        let target: [UInt8]
        let shown: FilePath
        /// Its state just after the switch.
        let snapshot: FileSnapshot
    }

    private let held = Mutex<(files: [Held], problems: [String])>(([], []))
    /// How many versions are held at most: past it, the oldest are checked and let go.
    public let capacity: Int

    /// A holder of at most `capacity` displaced versions at once.
    public init(capacity: Int = 64) { self.capacity = max(1, capacity) }

    deinit {
        // Copied aside or let go as settle would; no one is left to read a report.
        for file in held.withLock({ $0.files }) { _ = Self.settle(file) }
    }

    /// Holds the displaced version open at `descriptor` (taken over), displaced from `target` in
    /// `folder`, with its status just after the switch.
    func hold(_ descriptor: FileDescriptor, status: stat, folder: Int32, target: [UInt8], shown: FilePath) {
        let copy = dup(folder)
        guard copy >= 0 else {
            try? descriptor.close()
            return
        }
        _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        let file = Held(file: descriptor.rawValue, folder: copy, target: target, shown: shown, snapshot: FileSnapshot(status, size: Int(status.st_size)))
        let oldest: [Held] = held.withLock { state in
            state.files.append(file)
            guard state.files.count > capacity else { return [] }
            let settled = Array(state.files.prefix(state.files.count - capacity))
            state.files.removeFirst(settled.count)
            return settled
        }
        let problems = oldest.compactMap(Self.settle)
        if !problems.isEmpty { held.withLock { $0.problems += problems } }
    }

    /// Checks every version held: one written to since it was displaced is copied aside and
    /// reported, the others let go. Returns the reports (since the last call).
    public func settle() -> [String] {
        let (files, problems) = held.withLock { state in
            defer { state = ([], []) }
            return state
        }
        return problems + files.compactMap(Self.settle)
    }

    /// Lets a held version go, or copies it aside when it was written to; returns a report then.
    private static func settle(_ held: Held) -> String? {
        defer {
            close(held.file)
            close(held.folder)
        }
        var status = stat()
        guard fstat(held.file, &status) == 0, !held.snapshot.isUnchanged(status) else { return nil }
        let kept = held.target + Array(".trawl-conflict-\(getpid())-\(AtomicFile.nextSerial())".utf8)
        let shownKept = held.shown.removingLastComponent().appending(name: kept).bytesDescription
        let lead = "\(held.shown.bytesDescription): a program that had the file open wrote to the version replaced, after the switch"
        guard let failure = copy(held.file, to: kept, in: held.folder) else { return "\(lead); that version is kept at \(shownKept)" }
        return "\(lead); that version could not be kept (\(failure))"
    }

    /// Copies the open file `source` to a new file `name` in `folder`; the reason when it cannot.
    private static func copy(_ source: Int32, to name: [UInt8], in folder: Int32) -> String? {
        let target = withNameString(name) { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard target >= 0 else { return String(cString: strerror(errno)) }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, offset) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return String(cString: strerror(errno)) }
            if got == 0 { break }
            let failure: Errno? = buffer.withUnsafeBytes { bytes in
                do throws(Errno) { try FileDescriptor(rawValue: target).writeAll(UnsafeRawBufferPointer(rebasing: bytes[0..<got])) } catch { return error }
                return nil
            }
            if let failure { return String(cString: strerror(failure.rawValue)) }
            offset += off_t(got)
        }
        return fsync(target) == 0 ? nil : String(cString: strerror(errno))
    }
}
