#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTrawlSystem
import SystemPackage
import TrawlKernels
import TrawlMatch
import TrawlText
import TrawlStorage
import TrawlConcurrency

/// A file's text, read whole (or memory-mapped), with what is needed to write it back safely.
public struct FileContent: Sendable {
    /// The text after any byte-order mark: valid UTF-8 without NUL bytes once checked (see
    /// ``isChecked``).
    public let text: ContiguousText
    /// Whether ``text`` is known to be valid UTF-8 without NUL bytes. False only for a
    /// memory-mapped file read with ``Purpose/search(allowsMapping:allowsStreams:checksLater:)``
    /// `checksLater`: then nothing may read the text until ``checked()`` or
    /// ``inCheckedBlocks(blockBytes:_:)`` has checked the bytes it reads.
    public private(set) var isChecked = true
    /// The UTF-8 byte-order mark the file starts with, or nothing. It is not part of ``text`` (so
    /// `^` matches on the first line and printed lines do not show it) and is written back as it was.
    public let byteOrderMark: [UInt8]
    /// The file's identity and state when it was read.
    public let snapshot: FileSnapshot
    /// The hash of all of the file's bytes (``ContentHasher``), when read ``Purpose/rewrite``.
    public let hash: UInt64?
    private let mapping: MappingGuard?

    /// Whether the file shrank while it was memory-mapped (another program truncated it). The
    /// vanished bytes read as NUL: results taken from such a text must be reported, not trusted.
    public var changedWhileMapped: Bool { mapping?.faulted ?? false }
}

/// Why a file was not searched or rewritten.
public enum FileSkip: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read: the system's reason.
    case unreadable(String)
    /// Not a regular file (a device, FIFO or socket): never rewritten, and searched only when
    /// named explicitly.
    case notRegular(kind: String)
    /// A NUL byte: a binary file. The offset of the first one.
    case binary(offset: Int)
    /// Not valid UTF-8; the offset of the first bad byte.
    case invalidUTF8(offset: Int)
    /// UTF-16 text (it starts with a UTF-16 byte-order mark); Trawl searches UTF-8 only.
    case utf16(bigEndian: Bool)
    /// The file shrank while it was being read.
    case changedDuringRead

    /// Why the file was skipped, for a message.
    public var description: String {
        switch self {
        case .unreadable(let reason): reason
        case .notRegular(let kind): "not a regular file (\(kind)); left alone"
        case .binary(let offset): "binary file (NUL byte at offset \(offset)); skipped, left untouched"
        case .invalidUTF8(let offset): "not valid UTF-8 (first bad byte at offset \(offset)); skipped, left untouched"
        case .utf16(let bigEndian): "UTF-16 text (\(bigEndian ? "big" : "little")-endian byte-order mark); skipped, left untouched (Trawl reads UTF-8 only)"
        case .changedDuringRead: "the file shrank while it was read; skipped, left untouched"
        }
    }
}

extension FileContent {
    /// What the content is read for.
    public enum Purpose: Sendable {
        /// Searching only: large regular files may be memory-mapped, and devices and FIFOs named
        /// explicitly are read as streams (as `grep` and ripgrep read `<(command)`). With
        /// `checksLater`, a mapped file's text is not checked when read (see
        /// ``FileContent/isChecked``), so that the check and the search can share one pass over
        /// memory (``FileContent/inCheckedBlocks(blockBytes:_:)``).
        case search(allowsMapping: Bool, allowsStreams: Bool, checksLater: Bool = false)
        /// Rewriting: regular files only, read into private memory, with the content hash.
        case rewrite
    }

    /// The size of the first block, checked for NUL bytes before the rest is read.
    public static let binaryProbeBytes = 8192
    /// The most a file's first read asks for: the block checked for NUL bytes, or a whole file of
    /// ordinary source size in one call.
    static let firstReadBytes = 64 << 10

    /// Files at least this large are memory-mapped when reading for search only: mapping avoids
    /// copying from the page cache.
    public static let mapThreshold = FileBytes.mapThreshold

    /// Reads the file at `path` (links followed).
    public static func read(path: FilePath, for purpose: Purpose) -> Result<FileContent, FileSkip> {
        read(WalkedFile(path: path, isExplicit: true), for: purpose)
    }

    /// Reads a walked file: from its anchor without following links when it has one (a name
    /// swapped for a link since the walk is refused, not followed), else by its path.
    public static func read(_ file: WalkedFile, for purpose: Purpose) -> Result<FileContent, FileSkip> {
        // Non-blocking, so that a FIFO put in place of a walked file cannot hang the open; a
        // stream the user named is opened as any reader would, waiting for its writer.
        let descriptor: FileDescriptor
        switch file.open(flags: O_RDONLY | (purpose.allowsStreams ? 0 : O_NONBLOCK)) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            if file.anchor != nil && error == .tooManySymbolicLinkLevels { return .failure(.notRegular(kind: "symbolic link")) }
            // A socket cannot be opened at all: say what it is rather than "no such device".
            if case .success(let status) = statPath(file.path, followLinks: file.anchor == nil),
               status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
                return .failure(.notRegular(kind: fileKind(status.st_mode)))
            }
            return .failure(.unreadable(systemMessage(error.rawValue)))
        }
        defer { try? descriptor.close() }
        let status: stat
        switch statDescriptor(descriptor) {
        case let .success(found): status = found
        case let .failure(error): return .failure(.unreadable(systemMessage(error.rawValue)))
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { return .failure(.unreadable("is a directory")) }
        if type != S_IFREG {
            guard purpose.allowsStreams, type == S_IFIFO || type == S_IFCHR else {
                return .failure(.notRegular(kind: fileKind(status.st_mode)))
            }
        }
        if purpose.allowsMapping, type == S_IFREG, Int(status.st_size) >= mapThreshold,
           let mapped = map(descriptor, status: status, checking: !purpose.checksLater) {
            return mapped
        }
        return read(descriptor, status: status, isStream: type != S_IFREG, hashing: purpose.isRewrite)
    }

    /// Reads standard input (or any open descriptor) to its end, for searching.
    public static func read(descriptor: FileDescriptor) -> Result<FileContent, FileSkip> {
        switch statDescriptor(descriptor) {
        case let .success(status): return read(descriptor, status: status, isStream: true, hashing: false)
        case let .failure(error): return .failure(.unreadable(systemMessage(error.rawValue)))
        }
    }

    private static func read(_ descriptor: FileDescriptor, status: stat, isStream: Bool, hashing: Bool) -> Result<FileContent, FileSkip> {
        var capacity = max(Int(status.st_size), 0) + 1
        var base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var length = 0
        var probed = 0
        while true {
            if length == capacity {
                // The file grew (or is a stream): make room.
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, 65536))
                bigger.update(from: base, count: length)
                base.deallocate()
                base = bigger
                capacity = max(capacity * 2, 65536)
            }
            // The first block alone, then the rest: a binary file is skipped having read only its
            // first block (and without touching the pages of a large buffer).
            let wanted = probed < binaryProbeBytes && !isStream ? min(capacity - length, firstReadBytes - length) : capacity - length
            let got: Int
            do {
                got = try descriptor.read(into: UnsafeMutableRawBufferPointer(start: base + length, count: wanted))
            } catch {
                base.deallocate()
                return .failure(.unreadable(systemMessage((error as? Errno)?.rawValue ?? EIO)))
            }
            if got == 0 { break }
            length += got
            // Binary files are skipped early: check the first block, and every block of a stream
            // (a device such as /dev/zero never ends).
            if probed < 2 && length >= 2, let utf16 = utf16Mark(UnsafeBufferPointer(start: base, count: 2)) {
                base.deallocate()
                return .failure(utf16) // NUL bytes are ordinary in UTF-16 text: say what it is
            }
            if isStream || probed < binaryProbeBytes {
                let end = isStream ? length : min(length, binaryProbeBytes)
                if end > probed, let nul = memchr(base + probed, 0, end - probed) {
                    base.deallocate()
                    return .failure(.binary(offset: UnsafeMutablePointer<UInt8>(nul.assumingMemoryBound(to: UInt8.self)) - base))
                }
                probed = max(probed, end)
            }
        }
        let bytes = UnsafeBufferPointer(start: base, count: length)
        if let skip = check(bytes) {
            base.deallocate()
            return .failure(skip)
        }
        let hash = hashing ? ContentHasher.hash(bytes) : nil
        let bom = byteOrderMarkLength(bytes)
        let address = UInt(bitPattern: base)
        let text = ContiguousText(unsafeValidUTF8: base + bom, count: length - bom) {
            UnsafeMutablePointer<UInt8>(bitPattern: address)?.deallocate()
        }
        return .success(FileContent(text: text, byteOrderMark: Array(bytes[..<bom]), snapshot: FileSnapshot(status, size: length),
                                    hash: hash, mapping: nil))
    }

    private static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// Why bytes cannot be searched as text: a UTF-16 byte-order mark, a NUL anywhere, or
    /// invalid UTF-8 (one pass, at memory speed).
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FileSkip? {
        if let utf16 = utf16Mark(bytes) { return utf16 }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let stop = firstBadByte(base, count: bytes.count)
        if stop == bytes.count { return nil }
        return bytes[stop] == 0 ? .binary(offset: stop) : .invalidUTF8(offset: stop)
    }

    /// The offset of the first NUL or invalid UTF-8 byte, or `count`.
    private static func firstBadByte(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        guard count >= partedWorkThreshold else { return trawl_text_check(base, count) }
        // Parts start on a byte that is not a continuation byte, where a whole-text check would be
        // too (had it found nothing before): the first part's bad byte is the text's first.
        let address = UInt(bitPattern: base) // a pointer is not Sendable; the buffer outlives the work
        let stops = inParts(of: count, boundary: { nominal in
            var start = nominal
            while start < count && base[start] & 0xC0 == 0x80 { start += 1 }
            return start
        }) { range in
            (stop: range.lowerBound + trawl_text_check(UnsafePointer<UInt8>(bitPattern: address)! + range.lowerBound, range.count), end: range.upperBound)
        }
        return stops.first { $0.stop < $0.end }?.stop ?? count
    }

    private static func utf16Mark(_ bytes: UnsafeBufferPointer<UInt8>) -> FileSkip? {
        guard bytes.count >= 2 else { return nil }
        if (bytes[0], bytes[1]) == (0xFF, 0xFE) { return .utf16(bigEndian: false) }
        if (bytes[0], bytes[1]) == (0xFE, 0xFF) { return .utf16(bigEndian: true) }
        return nil
    }

    private static func map(_ descriptor: FileDescriptor, status: stat, checking: Bool) -> Result<FileContent, FileSkip>? {
        let length = Int(status.st_size)
        // No MAP_POPULATE: it maps the pages one by one on this thread before any work starts,
        // while faults map them sixteen at a time on whichever core reads them (faster, measured
        // counting in a large file).
        // Registered before the first access: a file truncated from now on reads as zeros
        // instead of killing the process with SIGBUS.
        guard let mapping = MappingGuard.map(descriptor, length: length) else { return nil }
        let bytes = mapping.bytes
        if let utf16 = utf16Mark(bytes) { return .failure(utf16) }
        if mapping.faulted { return .failure(.changedDuringRead) }
        let bom = byteOrderMarkLength(bytes)
        let text = ContiguousText(unsafeValidUTF8: bytes.baseAddress! + bom, count: length - bom) { mapping.release() }
        var content = FileContent(text: text, byteOrderMark: Array(bytes[..<bom]), snapshot: FileSnapshot(status, size: length),
                                  hash: nil, mapping: mapping)
        content.isChecked = false
        return checking ? content.checked() : .success(content)
    }
}

extension FileContent {
    /// The size of a block of ``inCheckedBlocks(blockBytes:_:)``, about: small enough to stay in a
    /// core's cache between the check and the work, large enough that a block costs little more.
    /// (Sizes from 32 KB to 1 MB measured alike; much larger blocks were slower.)
    public static let checkBlockBytes = 256 << 10

    /// The content with its text checked, or why it cannot be searched (a NUL or the first
    /// invalid UTF-8 byte, at its offset in the file; or the file shrank while mapped).
    public func checked() -> Result<FileContent, FileSkip> {
        if isChecked { return .success(self) }
        // No work rides on this check, so its parts need not end after a line feed: looking for
        // one read a 50 MB line again.
        let stop = text.withBytes { bytes in bytes.baseAddress.map { Self.firstBadByte($0, count: bytes.count) } ?? 0 }
        if mapping?.faulted == true { return .failure(.changedDuringRead) }
        if stop < text.utf8Count { return .failure(badByte(at: stop)) }
        var content = self
        content.isChecked = true
        return .success(content)
    }

    /// Why the text cannot be searched, given its first bad byte (offsets count from the file's start).
    private func badByte(at stop: Int) -> FileSkip {
        let offset = stop + byteOrderMark.count
        return text.withBytes { $0[stop] } == 0 ? .binary(offset: offset) : .invalidUTF8(offset: offset)
    }

    /// Calls `work` on consecutive blocks of ``text`` that together cover it, in order — each about
    /// `blockBytes` long and cut after a line feed — checking each block just before its work, on
    /// the cores at hand when the text is large. Returns the results in order, or why the file
    /// cannot be searched: the same as ``checked()``, whatever the blocks.
    ///
    /// One pass over memory instead of two: the work reads a block the check has just brought
    /// into cache. `work` must read only its own block's bytes, which are checked by then; the
    /// rest of the text may not be.
    public func inCheckedBlocks<Part: Sendable>(blockBytes: Int = FileContent.checkBlockBytes,
                                                _ work: @Sendable (Range<Int>) -> Part) -> Result<[Part], FileSkip> {
        let checks = !isChecked
        let outcomes: [(parts: [Part], stop: Int?)] = text.withBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] }
            let count = bytes.count
            let address = UInt(bitPattern: base) // a pointer is not Sendable; the text outlives the work
            // The first line start at or after an offset past 0 (just after a line feed), or `count`.
            @Sendable func lineStart(after offset: Int) -> Int {
                LineLocator(UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: address)!, count: count)).lineEnd(offset - 1)
            }
            @Sendable func blocks(_ range: Range<Int>) -> (parts: [Part], stop: Int?) {
                let base = UnsafePointer<UInt8>(bitPattern: address)!
                var parts: [Part] = []
                var start = range.lowerBound
                while start < range.upperBound {
                    let end = min(lineStart(after: start + max(blockBytes, 1)), range.upperBound)
                    if checks {
                        let stop = start + trawl_text_check(base + start, end - start)
                        if stop < end { return (parts, stop) }
                    }
                    parts.append(work(start..<end))
                    start = end
                }
                return (parts, nil)
            }
            guard count >= partedWorkThreshold else { return [blocks(0..<count)] }
            // Parts, like blocks, start at line starts: the bytes before are whole characters, so
            // the first bad byte of the first part holding one is the text's first.
            return inParts(of: count, boundary: { lineStart(after: $0) }, blocks)
        }
        if mapping?.faulted == true { return .failure(.changedDuringRead) }
        var parts: [Part] = []
        for outcome in outcomes {
            if let stop = outcome.stop { return .failure(badByte(at: stop)) }
            parts += outcome.parts
        }
        return .success(parts)
    }
}

extension FileContent.Purpose {
    var isRewrite: Bool { if case .rewrite = self { true } else { false } }

    var allowsMapping: Bool { if case .search(allowsMapping: true, _, _) = self { true } else { false } }

    var allowsStreams: Bool { if case .search(_, allowsStreams: true, _) = self { true } else { false } }

    var checksLater: Bool { if case .search(_, _, checksLater: true) = self { true } else { false } }
}

extension ContiguousText {
    /// Calls `body` with the text's bytes.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withContiguousStorageIfAvailable(body)!
    }
}
