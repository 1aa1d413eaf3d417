#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// The user's secret key that marks what Trawl made for this user (``SipHash`` under it): the
/// manifests of tree indexes, and the names of temporary files. A tree may come with a `.trawl/`
/// of its own — cloned, unpacked, planted — whose checksums anyone can compute, or with files
/// named like Trawl's temporaries; only what this key authenticates is trusted to list the tree's
/// files, or removed as a leftover. Kept in `$XDG_STATE_HOME/trawl/index-key` (or
/// `~/.local/state/trawl/index-key`), readable by its owner only, made on first use.
package struct UserKey: Sendable, Equatable {
    let k0: UInt64
    let k1: UInt64

    /// A key of these 16 bytes (tests make their own).
    package init(_ bytes: [UInt8]) {
        precondition(bytes.count == 16, "a key is 16 bytes")
        k0 = bytes[0..<8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        k1 = bytes[8..<16].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A fresh random key.
    package static func random() -> UserKey {
        var generator = SystemRandomNumberGenerator()
        return UserKey((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// This user's key, read (or made) once per process.
    package static let user: Result<UserKey, Unavailable> = load()

    /// Why this user has no key (no state folder, a key file that is not private...).
    package struct Unavailable: Error, Equatable, CustomStringConvertible {
        package let reason: String
        package var description: String { "no key to check what Trawl made (\(reason))" }
    }

    /// Where the key lives, from the environment; `nil` without `XDG_STATE_HOME` or `HOME`.
    static func location() -> FilePath? {
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        if let state = variable("XDG_STATE_HOME") { return FilePath(state).appending("trawl") }
        return variable("HOME").map { FilePath($0).appending(".local/state/trawl") }
    }

    static let fileName = "index-key"

    private static func load() -> Result<UserKey, Unavailable> {
        guard let folder = location() else { return .failure(Unavailable(reason: "neither XDG_STATE_HOME nor HOME names a folder")) }
        let path = folder.appending(fileName)
        switch read(path) {
        case .success(let key): return .success(key)
        case .failure(.absent): break
        case .failure(.unusable(let why)): return .failure(Unavailable(reason: "\(path): \(why)"))
        }
        // None yet: made whole under a name of its own, then linked in place (a concurrent
        // first run that links first wins, and both use its key).
        guard makeFolders(folder) else { return .failure(Unavailable(reason: "\(folder): \(systemMessage(Errno(rawValue: errno)))")) }
        let temporary = folder.appending("\(fileName).\(getpid()).tmp")
        _ = temporary.withPlatformString { unlink($0) }
        let descriptor = temporary.withPlatformString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return .failure(Unavailable(reason: "\(temporary): \(systemMessage(Errno(rawValue: errno)))")) }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, 16) } == 16 && fsync(descriptor) == 0
        close(descriptor)
        defer { _ = temporary.withPlatformString { unlink($0) } }
        guard written else { return .failure(Unavailable(reason: "\(temporary): cannot be written")) }
        let linked = temporary.withPlatformString { from in path.withPlatformString { to in link(from, to) } }
        guard linked == 0 || errno == EEXIST else { return .failure(Unavailable(reason: "\(path): \(systemMessage(Errno(rawValue: errno)))")) }
        return read(path).mapError { problem in
            if case .unusable(let why) = problem { return Unavailable(reason: "\(path): \(why)") }
            return Unavailable(reason: "\(path): gone as it was made")
        }
    }

    private enum Problem: Error {
        case absent
        case unusable(String)
    }

    /// The key in the file at `path`: a regular file of 16 bytes, this user's, readable by no one
    /// else (as ssh asks of its keys).
    private static func read(_ path: FilePath) -> Result<UserKey, Problem> {
        let descriptor = path.withPlatformString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let error = Errno(rawValue: errno)
            return .failure(error == .noSuchFileOrDirectory ? .absent : .unusable(error == .tooManySymbolicLinkLevels ? "a symbolic link" : systemMessage(error)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unusable(systemMessage(Errno(rawValue: errno)))) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size == 16 else { return .failure(.unusable("not a key (16 bytes in a regular file)")) }
        guard status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
            return .failure(.unusable("not private (it must be this user's, readable by no one else)"))
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard bytes.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 16, 0) }) == 16 else { return .failure(.unusable("cannot be read")) }
        return .success(UserKey(bytes))
    }

    /// Makes `folder` and its missing parents (owner only: the key is a secret).
    private static func makeFolders(_ folder: FilePath) -> Bool {
        var path = FilePath(root: folder.root)
        for component in folder.components {
            path.append(component)
            if path.withPlatformString({ mkdir($0, 0o700) }) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}

private func systemMessage(_ error: Errno) -> String { systemMessage(error.rawValue) }
