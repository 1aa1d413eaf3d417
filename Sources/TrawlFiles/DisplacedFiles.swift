#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SystemPackage

/// The versions a run's rewrites displaced, held under their temporary names for a while instead
/// of removed at once.
///
/// A program that opened a file before it was replaced (an appender, a log writer) still writes
/// to the version that was displaced: after the switch its writes land in no file. No switch can
/// prevent that; holding the displaced versions until the run ends (or ``capacity`` are held)
/// catches the writes made meanwhile: such a version is kept beside the file as
/// `<name>.trawl-conflict-<pid>-<n>` and reported, the others are removed. Writes after that are
/// beyond any check.
public final class DisplacedFiles: Sendable {
    private struct Held: @unchecked Sendable { // the descriptor is this holder's alone
        /// The folder, open (a duplicate: the writer closes its own).
        let folder: Int32
        let temporary: [UInt8]
        let target: [UInt8]
        let shown: FilePath
        /// Its state just after the switch.
        let snapshot: FileSnapshot
    }

    private let held = Mutex<(files: [Held], problems: [String])>(([], []))
    /// How many versions are held at most: past it, the oldest are checked and settled.
    public let capacity: Int

    /// A holder of at most `capacity` displaced versions at once.
    public init(capacity: Int = 256) { self.capacity = max(1, capacity) }

    deinit {
        // Kept aside or removed as settle would; no one is left to read a report.
        for file in held.withLock({ $0.files }) { _ = Self.settle(file) }
    }

    /// Holds the version at `temporary` in `folder`, displaced from `target` (with its status
    /// just after the switch).
    func hold(folder: Int32, temporary: [UInt8], target: [UInt8], shown: FilePath, status: stat) -> Bool {
        let copy = dup(folder)
        guard copy >= 0 else { return false }
        _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        let file = Held(folder: copy, temporary: temporary, target: target, shown: shown, snapshot: FileSnapshot(status, size: Int(status.st_size)))
        let oldest: [Held] = held.withLock { state in
            state.files.append(file)
            guard state.files.count > capacity else { return [] }
            let settled = Array(state.files.prefix(state.files.count - capacity))
            state.files.removeFirst(settled.count)
            return settled
        }
        let problems = oldest.compactMap(Self.settle)
        if !problems.isEmpty { held.withLock { $0.problems += problems } }
        return true
    }

    /// Checks every version held: one written to since it was displaced is kept aside and
    /// reported, the others removed. Returns the reports (since the last call).
    public func settle() -> [String] {
        let (files, problems) = held.withLock { state in
            defer { state = ([], []) }
            return state
        }
        return problems + files.compactMap(Self.settle)
    }

    /// Removes a held version, or keeps it aside when it was written to; returns a report then.
    private static func settle(_ file: Held) -> String? {
        defer { close(file.folder) }
        var status = stat()
        let found = withNameString(file.temporary) { fstatat(file.folder, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
        guard found, file.snapshot.isUnchanged(status) else {
            guard found else { return nil }
            let kept = file.target + Array(".trawl-conflict-\(getpid())-\(AtomicFile.nextSerial())".utf8)
            let moved = withNameString(file.temporary) { from in withNameString(kept) { to in renameat(file.folder, from, file.folder, to) } } == 0
            let where_ = file.shown.removingLastComponent().appending(name: moved ? kept : file.temporary)
            return "\(file.shown.bytesDescription): a program that had the file open wrote to the version replaced, after the switch; "
                + "that version is kept at \(where_.bytesDescription)"
        }
        _ = withNameString(file.temporary) { unlinkat(file.folder, $0, 0) }
        return nil
    }
}

