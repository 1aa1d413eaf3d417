#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage

/// Replaces the file at `path` with `parts` back to back, atomically and durably: a new
/// temporary file in the same folder (`NAME.PID.tmp`, created afresh, never through a link)
/// is written and synced, renamed over `path` (a link there is replaced, not followed), and
/// the folder synced, so a crash leaves the old file or the new one, whole.
package func writeAtomically(parts: [[UInt8]], to path: FilePath) throws(Errno) {
    let folderPath = path.removingLastComponent().isEmpty ? FilePath(".") : path.removingLastComponent()
    let descriptor = folderPath.withPlatformString { trawl_open_folder($0) }
    guard descriptor >= 0 else { throw Errno(rawValue: errno) }
    defer { close(descriptor) }
    let name = path.lastComponent?.string ?? "index"
    let temporary = "\(name).\(getpid()).tmp"
    _ = unlinkat(descriptor, temporary, 0)
    let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard file >= 0 else { throw Errno(rawValue: errno) }
    var failure: Errno?
    for part in parts where failure == nil {
        failure = part.withUnsafeBytes { buffer -> Errno? in
            do throws(Errno) { try FileDescriptor(rawValue: file).writeAll(buffer) } catch { return error }
            return nil
        }
    }
    if failure == nil && fsync(file) != 0 { failure = Errno(rawValue: errno) }
    close(file)
    if failure == nil && renameat(descriptor, temporary, descriptor, name) != 0 { failure = Errno(rawValue: errno) }
    if let failure {
        _ = unlinkat(descriptor, temporary, 0)
        throw failure
    }
    // The rename itself made durable.
    _ = fsync(descriptor)
}
