#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage
import TrawlFiles
import TrawlMatch
import TrawlNGram
import TrawlConcurrency

/// How a search asks a tree's watcher (``TreeWatcher``) what changed since the index state it
/// opened. One request per connection, one reply, then the watcher closes it:
///
/// ```
/// request   "trawl-watch 2 changes " + 16 hex digits (the manifest's identity) + "\n"
/// reply     "ok\n" then each changed path (relative to the root) followed by a NUL byte,
///           or "unknown\n" (a state the watcher does not vouch for, or changes it lost)
///
/// request   "trawl-watch 2 search " + "b" (binary files skipped) or "-" + " " + the literal
///           query in hex (below) + "\n"
/// reply     "ok\n", files ruled out and their bytes in decimal ("N B\n"), then each file to
///           hand over (relative to the root, in walk order) followed by a NUL byte, each after
///           the skip the listing records for it: "-" (none: search it), "u" + the offset of
///           the first bad byte in decimal + ":" (not valid UTF-8), "l" or "m" (UTF-16 little-
///           or big-endian); or "unknown\n"
/// query     "A" (any file) | "L" varint n, n bytes, n caseless flags (0/1) | "&" or "|"
///           varint n, then n queries
/// ```
///
/// The second asks the watcher, which holds the index open, to answer the query itself: the
/// search then opens no index (decoding a listing of tens of thousands of files was most of a
/// search for a rare word).
///
/// The address is a Linux abstract socket named after the user and the root folder's device and
/// inode (any path to the folder finds it); it needs no file in the tree and vanishes with the
/// watcher. A reply is trusted only from a process of the same user.
package enum TreeWatchChannel {
    /// How long a search waits for each send or receive of the watcher before it checks the files
    /// itself (a watcher stopped with Ctrl-Z still takes connections).
    static let timeoutMilliseconds: Int32 = 250
    static let requestPrefix = Array("trawl-watch 2 changes ".utf8)

    /// The socket's name for the folder with this `stat`: `trawl-watch/UID/DEV-INODE`, the user
    /// id in decimal, the others in lowercase hexadecimal.
    static func address(of folder: stat) -> [UInt8] {
        // Digits written by hand: formatting through `String` was a visible part of each search's start.
        func append(_ value: UInt64, radix: UInt64, to bytes: inout [UInt8]) {
            var digits: [UInt8] = []
            var rest = value
            repeat {
                let digit = UInt8(rest % radix)
                digits.append(digit < 10 ? 0x30 + digit : 0x61 + digit - 10)
                rest /= radix
            } while rest > 0
            bytes += digits.reversed()
        }
        var bytes = Array("trawl-watch/".utf8)
        append(UInt64(geteuid()), radix: 10, to: &bytes)
        bytes.append(UInt8(ascii: "/"))
        append(UInt64(folder.st_dev), radix: 16, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(UInt64(folder.st_ino), radix: 16, to: &bytes)
        return bytes
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

    /// The reply of a watcher that cannot say.
    static let unknownReply = Array("unknown\n".utf8)

    static func reply(_ changes: Set<[UInt8]>?) -> [UInt8] {
        guard let changes else { return unknownReply }
        return Array("ok\n".utf8) + pathList(changes)
    }

    /// The changes a complete reply gives: `.some(nil)` for "unknown", `nil` for a malformed reply.
    static func changes(inReply bytes: [UInt8]) -> Set<[UInt8]>?? {
        if bytes == unknownReply { return .some(nil) }
        let head = Array("ok\n".utf8)
        guard bytes.starts(with: head), let paths = paths(in: bytes[head.count...]) else { return nil }
        return .some(Set(paths))
    }

    /// Paths, each followed by a NUL byte.
    private static func pathList(_ paths: some Sequence<[UInt8]>) -> [UInt8] {
        var bytes: [UInt8] = []
        for path in paths {
            bytes += path
            bytes.append(0)
        }
        return bytes
    }

    /// The paths of a list (`nil` when it is not one: an empty path, or no NUL at its end).
    private static func paths(in bytes: ArraySlice<UInt8>) -> [[UInt8]]? {
        guard bytes.isEmpty || bytes.last == 0 else { return nil }
        var paths: [[UInt8]] = []
        for path in bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast() {
            guard !path.isEmpty else { return nil }
            paths.append(Array(path))
        }
        return paths
    }

    /// Asks the watcher of the folder at `root` (with `stat` `folder`), when one runs, for the
    /// paths changed since the index state `identity`. `nil` when no watcher answers, in time,
    /// for that state: then the search checks the files itself.
    package static func changes(at folder: stat, since identity: UInt64) -> Set<[UInt8]>? {
        exchange(request(since: identity), at: folder).flatMap { changes(inReply: $0) ?? nil }
    }

    /// What a watcher that answers a query sends back: the files to search, and those the index
    /// rules out (unchanged since) with their bytes.
    package struct Selection: Sendable, Equatable {
        package var paths: [[UInt8]]
        /// For each path, why a search skips it while it is unchanged, when the listing says.
        package var recordedSkips: [FileSkip?]
        package var filesRuledOut: Int
        package var bytesRuledOut: Int
    }

    /// Asks the watcher of the folder with `stat` `folder`, when one runs, to select the files
    /// that can hold a match of `query` (binary files skipped unread with `skipsBinaryFiles`),
    /// from the index it holds open and the changes it saw; `nil` when none answers in time or it
    /// cannot vouch for its index.
    package static func selection(at folder: stat, for query: LiteralQuery, skipsBinaryFiles: Bool) -> Answer<Selection> {
        guard let reply = exchange(searchRequest(query, skipsBinaryFiles: skipsBinaryFiles), at: folder) else { return .noWatcher }
        return selection(inReply: reply).flatMap { $0 }.map(Answer.answered) ?? .cannotSay
    }

    /// What asking a watcher gave.
    package enum Answer<Value: Sendable>: Sendable {
        case answered(Value)
        /// A watcher answered that it cannot say (or garbled its answer).
        case cannotSay
        /// No watcher answered (none runs, or not in time).
        case noWatcher
    }

    static func searchRequest(_ query: LiteralQuery, skipsBinaryFiles: Bool) -> [UInt8] {
        var encoded: [UInt8] = []
        encode(query, into: &encoded)
        let digits = Array("0123456789abcdef".utf8)
        var request = searchPrefix + [skipsBinaryFiles ? UInt8(ascii: "b") : UInt8(ascii: "-"), UInt8(ascii: " ")]
        for byte in encoded { request += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        request.append(UInt8(ascii: "\n"))
        return request
    }

    static let searchPrefix = Array("trawl-watch 2 search ".utf8)

    /// The query and binary flag of a complete search request; `nil` when `bytes` is not one.
    static func search(inRequest bytes: [UInt8]) -> (query: LiteralQuery, skipsBinaryFiles: Bool)? {
        let head = searchPrefix.count
        guard bytes.count >= head + 3, bytes.starts(with: searchPrefix), bytes.last == UInt8(ascii: "\n"),
              bytes[head + 1] == UInt8(ascii: " "), bytes[head] == UInt8(ascii: "b") || bytes[head] == UInt8(ascii: "-") else { return nil }
        let hex = bytes[(head + 2)..<(bytes.count - 1)]
        guard hex.count % 2 == 0 else { return nil }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = hexValue(hex[index]), let low = hexValue(hex[index + 1]) else { return nil }
            encoded.append(high << 4 | low)
            index += 2
        }
        var position = 0
        guard let query = decode(encoded, at: &position, depth: 0), position == encoded.count else { return nil }
        return (query, bytes[head] == UInt8(ascii: "b"))
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func encode(_ query: LiteralQuery, into out: inout [UInt8]) {
        func varint(_ value: Int) {
            var value = UInt64(value)
            while value >= 0x80 {
                out.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            out.append(UInt8(value))
        }
        switch query {
        case .all: out.append(UInt8(ascii: "A"))
        case .literal(let literal):
            out.append(UInt8(ascii: "L"))
            varint(literal.bytes.count)
            out += literal.bytes
            out += literal.caseless.map { $0 ? 1 : 0 }
        case .and(let parts), .or(let parts):
            if case .and = query { out.append(UInt8(ascii: "&")) } else { out.append(UInt8(ascii: "|")) }
            varint(parts.count)
            for part in parts { encode(part, into: &out) }
        }
    }

    /// A query at `position` of `bytes`, or `nil` when they are not one (nesting is bounded).
    private static func decode(_ bytes: [UInt8], at position: inout Int, depth: Int) -> LiteralQuery? {
        func varint() -> Int? {
            var value = 0, shift = 0
            while position < bytes.count, shift < 35 {
                let byte = bytes[position]
                position += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        guard depth < 64, position < bytes.count else { return nil }
        let kind = bytes[position]
        position += 1
        switch kind {
        case UInt8(ascii: "A"): return .all
        case UInt8(ascii: "L"):
            guard let count = varint(), count <= (bytes.count - position) / 2 else { return nil }
            let literal = Array(bytes[position..<(position + count)])
            let flags = bytes[(position + count)..<(position + 2 * count)]
            position += 2 * count
            guard flags.allSatisfy({ $0 <= 1 }), let parsed = QueryLiteral(bytes: literal, caseless: flags.map { $0 == 1 }) else { return nil }
            return .literal(parsed)
        case UInt8(ascii: "&"), UInt8(ascii: "|"):
            guard let count = varint(), count <= bytes.count - position else { return nil }
            var parts: [LiteralQuery] = []
            for _ in 0..<count {
                guard let part = decode(bytes, at: &position, depth: depth + 1) else { return nil }
                parts.append(part)
            }
            return kind == UInt8(ascii: "&") ? .and(parts) : .or(parts)
        default: return nil
        }
    }

    static func reply(_ selection: Selection?) -> [UInt8] {
        guard let selection else { return unknownReply }
        var bytes = Array("ok\n\(selection.filesRuledOut) \(selection.bytesRuledOut)\n".utf8)
        for (path, skip) in zip(selection.paths, selection.recordedSkips) {
            switch skip {
            case .invalidUTF8(let offset)?: bytes += Array("u\(offset):".utf8)
            case .utf16(let bigEndian)?: bytes.append(UInt8(ascii: bigEndian ? "m" : "l"))
            default: bytes.append(UInt8(ascii: "-"))
            }
            bytes += path
            bytes.append(0)
        }
        return bytes
    }

    /// The selection a complete reply gives: `.some(nil)` for "unknown", `nil` when malformed.
    static func selection(inReply bytes: [UInt8]) -> Selection?? {
        if bytes == unknownReply { return .some(nil) }
        // Read byte by byte, each path copied once: this runs at the start of every watched search.
        var position = 0
        func skip(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
        /// A decimal number of at least one digit.
        func number() -> Int? {
            var value = 0, digits = 0
            while position < bytes.count, bytes[position] &- 0x30 < 10 {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[position] &- 0x30))
                guard !overflow && !overflow2 else { return nil }
                value = sum
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }
        guard skip(UInt8(ascii: "o")), skip(UInt8(ascii: "k")), skip(0x0A), let files = number(), skip(0x20), let total = number(), skip(0x0A) else {
            return nil
        }
        var paths: [[UInt8]] = [], skips: [FileSkip?] = []
        while position < bytes.count {
            let flag = bytes[position]
            position += 1
            switch flag {
            case UInt8(ascii: "-"): skips.append(nil)
            case UInt8(ascii: "l"), UInt8(ascii: "m"): skips.append(.utf16(bigEndian: flag == UInt8(ascii: "m")))
            case UInt8(ascii: "u"):
                guard let offset = number(), skip(UInt8(ascii: ":")) else { return nil }
                skips.append(.invalidUTF8(offset: offset))
            default: return nil
            }
            guard let end = bytes[position...].firstIndex(of: 0), end > position else { return nil }
            paths.append(Array(bytes[position..<end]))
            position = end + 1
        }
        return .some(Selection(paths: paths, recordedSkips: skips, filesRuledOut: files, bytesRuledOut: total))
    }

    /// Sends all of `bytes` on the socket `descriptor` (within its time limit); whether it did.
    static func sendAll(_ bytes: [UInt8], to descriptor: Int32, within nanoseconds: UInt64) -> Bool {
        let deadline = monotonicNanoseconds() + nanoseconds
        // A peer gone is an error here, not a SIGPIPE (Linux; elsewhere there is no watcher).
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(descriptor, raw.baseAddress! + sent, raw.count - sent, flags)
                if count < 0 && errno == EINTR { continue }
                guard count > 0, monotonicNanoseconds() < deadline else { return false }
                sent += count
            }
            return true
        }
    }

    /// Sends `request` to the watcher of `folder` and reads its whole reply; `nil` when no
    /// watcher of the same user answers in time.
    private static func exchange(_ request: [UInt8], at folder: stat) -> [UInt8]? {
        let name = address(of: folder)
        let descriptor = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { trawl_connect_abstract($0.baseAddress, $0.count, timeoutMilliseconds) }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard trawl_peer_uid(descriptor) == Int64(geteuid()) else { return nil }
        guard sendAll(request, to: descriptor, within: UInt64(timeoutMilliseconds) * 1_000_000) else { return nil }
        // The whole answer within a few timeouts (each receive has one). The chunk is not zeroed
        // first: most replies are short, and clearing 64 KiB was a visible part of a watched search.
        let deadline = monotonicNanoseconds() + 4 * UInt64(timeoutMilliseconds) * 1_000_000
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1 << 16) { chunk -> [UInt8]? in
            var reply: [UInt8] = []
            while true {
                let got = recv(descriptor, chunk.baseAddress, chunk.count, 0)
                if got < 0 && errno == EINTR { continue }
                // A timeout or an error: no answer.
                guard got >= 0, monotonicNanoseconds() < deadline else { return nil }
                if got == 0 { return reply }
                reply.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<got]))
            }
        }
    }
}
