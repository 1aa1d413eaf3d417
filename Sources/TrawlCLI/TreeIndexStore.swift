#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlFiles
import TrawlIndex

/// Where a tree's index lives (`ROOT/.trawl/index`) and how it is read and written: written to a
/// temporary file, flushed, then renamed over the old one, so a crash or a kill during a build
/// leaves the old index whole; read back only when its checksum holds.
enum TreeIndexStore {
    static let folderName = ".trawl"
    static let fileName = "index"

    static func folder(_ root: FilePath) -> FilePath { root.appending(folderName) }
    static func path(_ root: FilePath) -> FilePath { folder(root).appending(fileName) }

    /// Opens the stored index of `root` and runs `body` with it (its posting lists are read from
    /// the file while `body` runs): `nil` when there is none, a failure when the file is there
    /// but unusable (truncated, corrupt, another version).
    static func withStoredIndex<R>(root: FilePath, _ body: (StoredTreeIndex) throws(TreeIndexFormat.Error) -> R)
        -> Result<R?, TreeIndexFormat.Error> {
        guard let descriptor = try? FileDescriptor.open(path(root), .readOnly) else { return .success(nil) }
        defer { try? descriptor.close() }
        guard let end = try? descriptor.seek(offset: 0, from: .end) else { return .failure(.corrupt("unreadable")) }
        do {
            let stored = try StoredTreeIndex(size: Int(end)) { offset, count throws(TreeIndexFormat.Error) in
                var bytes = [UInt8](repeating: 0, count: count)
                let got = bytes.withUnsafeMutableBytes { buffer in
                    var done = 0
                    while done < count {
                        let n = pread(descriptor.rawValue, buffer.baseAddress! + done, count - done, off_t(offset + done))
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        done += n
                    }
                    return done
                }
                guard got == count else { throw .corrupt("truncated") }
                return bytes
            }
            return .success(try body(stored))
        } catch {
            return .failure(error)
        }
    }

    /// Writes `index` for `root` atomically.
    static func save(_ index: TreeIndex, root: FilePath) throws(Errno) {
        let folder = folder(root)
        if case .failure = folder.status() {
            guard folder.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
        }
        let bytes = TreeIndexFormat.encode(index)
        let temporary = folder.appending("\(fileName).\(getpid()).tmp")
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw error as? Errno ?? .ioError
        }
        let written: Errno? = bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try descriptor.writeAll(buffer) } catch { return error }
            return fsync(descriptor.rawValue) == 0 ? nil : Errno(rawValue: errno)
        }
        try? descriptor.close()
        if let written {
            _ = temporary.withPlatformString { unlink($0) }
            throw written
        }
        let renamed = temporary.withPlatformString { from in path(root).withPlatformString { to in rename(from, to) } }
        guard renamed == 0 else {
            let code = errno
            _ = temporary.withPlatformString { unlink($0) }
            throw Errno(rawValue: code)
        }
        // The rename itself made durable.
        if let directory = try? FileDescriptor.open(folder, .readOnly) {
            _ = fsync(directory.rawValue)
            try? directory.close()
        }
    }

    /// What the index records of the file at `path` now, `relative` to the root; `nil` when it
    /// cannot be stat'ed.
    static func currentFile(_ path: FilePath, relative: String) -> TreeIndex.File? {
        guard case .success(let status) = path.status() else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return TreeIndex.File(path: relative, size: Int(status.st_size), modified: Int(modified.tv_sec) * 1_000_000_000 + Int(modified.tv_nsec),
                              inode: UInt64(status.st_ino))
    }

    /// The path of a walked file relative to `root` (as the index keys it).
    static func relative(_ path: FilePath, to root: FilePath) -> String {
        let full = path.string, prefix = root.string
        if prefix == "." || prefix.isEmpty { return full.hasPrefix("./") ? String(full.dropFirst(2)) : full }
        let withSlash = prefix.hasSuffix("/") ? prefix : prefix + "/"
        return full.hasPrefix(withSlash) ? String(full.dropFirst(withSlash.count)) : full
    }
}
