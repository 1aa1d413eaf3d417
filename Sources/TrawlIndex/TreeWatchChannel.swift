#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage

/// How a search asks a tree's watcher (``TreeWatcher``) what changed since the index state it
/// opened. One request per connection, one reply, then the watcher closes it:
///
/// ```
/// request   "trawl-watch 1 changes " + 16 hex digits (the manifest's identity) + "\n"
/// reply     "ok\n" then each changed path (relative to the root) followed by a NUL byte,
///           or "unknown\n" (a state the watcher does not vouch for, or changes it lost)
/// ```
///
/// The address is a Linux abstract socket named after the user and the root folder's device and
/// inode (any path to the folder finds it); it needs no file in the tree and vanishes with the
/// watcher. A reply is trusted only from a process of the same user.
public enum TreeWatchChannel {
    /// How long a search waits for the watcher before it checks the files itself.
    static let timeoutMilliseconds: Int32 = 1000
    static let requestPrefix = Array("trawl-watch 1 changes ".utf8)

    /// The socket's name for the folder with this `stat`.
    static func address(of folder: stat) -> [UInt8] {
        Array("trawl-watch/\(geteuid())/\(String(UInt64(folder.st_dev), radix: 16))-\(String(UInt64(folder.st_ino), radix: 16))".utf8)
    }

    static func request(since identity: UInt64) -> [UInt8] {
        let hex = String(identity, radix: 16)
        return requestPrefix + Array((String(repeating: "0", count: 16 - hex.count) + hex + "\n").utf8)
    }

    /// The identity a complete request asks about; `nil` when `bytes` is not one.
    static func identity(inRequest bytes: [UInt8]) -> UInt64? {
        guard bytes.count == requestPrefix.count + 17, bytes.starts(with: requestPrefix), bytes.last == UInt8(ascii: "\n") else { return nil }
        return UInt64(String(decoding: bytes[requestPrefix.count..<(bytes.count - 1)], as: UTF8.self), radix: 16)
    }

    static func reply(_ changes: Set<[UInt8]>?) -> [UInt8] {
        guard let changes else { return Array("unknown\n".utf8) }
        var bytes = Array("ok\n".utf8)
        for path in changes {
            bytes += path
            bytes.append(0)
        }
        return bytes
    }

    /// The changes a complete reply gives: `.some(nil)` for "unknown", `nil` for a malformed reply.
    static func changes(inReply bytes: [UInt8]) -> Set<[UInt8]>?? {
        if bytes == Array("unknown\n".utf8) { return .some(nil) }
        let head = Array("ok\n".utf8)
        guard bytes.starts(with: head), bytes.count == head.count || bytes.last == 0 else { return nil }
        var paths = Set<[UInt8]>()
        for path in bytes[head.count...].split(separator: 0, omittingEmptySubsequences: false).dropLast() {
            guard !path.isEmpty else { return nil }
            paths.insert(Array(path))
        }
        return .some(paths)
    }

    /// Asks the watcher of the folder at `root` (with `stat` `folder`), when one runs, for the
    /// paths changed since the index state `identity`. `nil` when no watcher answers, in time,
    /// for that state: then the search checks the files itself.
    public static func changes(at folder: stat, since identity: UInt64) -> Set<[UInt8]>? {
        let name = address(of: folder)
        let descriptor = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { trawl_connect_abstract($0.baseAddress, $0.count, timeoutMilliseconds) }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard trawl_peer_uid(descriptor) == Int64(geteuid()) else { return nil }
        let request = request(since: identity)
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return nil }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            // A timeout or an error: no answer.
            guard got >= 0 else { return nil }
            if got == 0 { break }
            reply += chunk[0..<got]
        }
        return changes(inReply: reply) ?? nil
    }
}
