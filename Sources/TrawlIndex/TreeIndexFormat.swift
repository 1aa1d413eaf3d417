#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TrawlFiles
import TrawlStorage
import TrawlNGram
import TrawlConcurrency

/// The stored form of a tree's index (version 6): a manifest (`.trawl/index`) holding the listing
/// of the tree and naming its segments, and immutable segment files (`.trawl/postings-…`) holding
/// posting lists. A refresh writes a small segment for the files that changed and a new manifest
/// (renamed over the old one), so its cost follows the change, not the tree. Integers are
/// little-endian; "varint" is LEB128; "zigzag" maps signed to unsigned varints.
///
/// ```
/// manifest header (36 bytes)  "TRAWLIX\0", u32 version = 6, u64 body length, u64 body
///                             authenticator (SipHash-2-4 under the user's key), u64
///                             checksum of the 28 bytes before it
/// manifest body               varint next file number; path of the root (absolute, resolved);
///                             u8 1 when the walk listed everything (no errors), else 0;
///                             varint segment count, per segment: varint name length, name,
///                               varint size, u64 checksum of its header, varint number limit
///                               (its postings are all below it: the next file number then);
///                             varint folder count, per folder: path, signature, u64 entries hash;
///                             varint watched count, per path: path, u8 state (0 absent,
///                               2 present with a signature that follows; 4 absent, 5 present
///                               when only its presence counts);
///                             varint file count, varint part count (at least 1), per part:
///                               varint files, varint bytes; then the parts' files in walk order
///                               (parts are read on several cores), per file: path (a part's
///                               first shares nothing), varint state (0: not indexed; 1, 2: not
///                               indexed, binary or not valid UTF-8, varint offset of the first
///                               NUL or bad byte follows; 3, 4: not indexed, UTF-16 little- or
///                               big-endian; n + 5: indexed as number n), signature
///   path                      varint bytes shared with the previous path of its table, varint
///                             length of the rest, the rest
///   signature                 varint size, zigzag modified, zigzag changed (ns), varint inode,
///                             varint mode
/// segment header (36 bytes)   "TRAWLSG\0", u32 version = 6, u64 trigram count, u64 postings
///                             length, u64 checksum of the 28 bytes before it
/// trigram table               per trigram, ascending: 3 key bytes, u32 list offset (from the
///                             postings' start), u32 list length, u64 list checksum; u64 checksum
/// postings                    per list: varint count, then the file numbers as gaps
/// ```
///
/// Every byte a reader uses is under a checksum (FNV-1a over 8-byte words) or the manifest's
/// authenticator, and the manifest records each segment's size, header checksum and number
/// limit, so a truncated, corrupt, foreign or mismatched file is refused with
/// ``TreeIndexFormat/Error`` rather than trusted. A manifest is trusted only under the key of the
/// user who built it (a tree may come with a `.trawl/` made elsewhere), and only as a listing a
/// walk could have made: relative paths without `.` or `..`, each file in a listed folder, each
/// folder in its listed parent, the root first.
package enum TreeIndexFormat {
    package static let version: UInt32 = 6
    static let manifestMagic = Array("TRAWLIX\0".utf8)
    static let segmentMagic = Array("TRAWLSG\0".utf8)
    static let headerLength = 36
    static let tableEntryLength = 19

    /// Why stored bytes are not a usable index.
    package typealias Error = StoredFormatError

    // MARK: Manifest

    /// The bytes of a manifest.
    package static func encode(_ manifest: TreeManifest, key: UserKey) -> [UInt8] {
        let listing = manifest.listing
        let head = ByteWriter.bytes(capacity: 64 + listing.root.count + manifest.segments.reduce(0) { $0 + $1.name.utf8.count + 40 }
                                    + listing.directories.reduce(0) { $0 + $1.path.count + pathAndSignatureBound + 8 }
                                    + listing.watched.reduce(0) { $0 + $1.path.count + pathAndSignatureBound + 1 }) { out in
            out.varint(UInt64(manifest.nextNumber))
            var none: [UInt8] = []
            writePath(listing.root, after: &none, to: &out)
            out.byte(listing.isComplete ? 1 : 0)
            out.varint(UInt64(manifest.segments.count))
            for segment in manifest.segments {
                let name = Array(segment.name.utf8)
                out.varint(UInt64(name.count))
                out.bytes(name[...])
                out.varint(UInt64(segment.size))
                out.uint(segment.headerChecksum, 8)
                out.varint(UInt64(segment.numberLimit))
            }
            var previous: [UInt8] = []
            out.varint(UInt64(listing.directories.count))
            for directory in listing.directories {
                writePath(directory.path, after: &previous, to: &out)
                writeSignature(directory.signature, to: &out)
                out.uint(directory.entriesHash, 8)
            }
            previous = []
            out.varint(UInt64(listing.watched.count))
            for watched in listing.watched {
                writePath(watched.path, after: &previous, to: &out)
                out.byte((watched.presenceOnly ? 4 : 0) | (watched.signature == nil ? 0 : watched.presenceOnly ? 1 : 2))
                if !watched.presenceOnly, let signature = watched.signature { writeSignature(signature, to: &out) }
            }
        }
        // The files, most of the manifest, in parts on every core (and read so).
        let files = listing.files
        let parts = files.count < 4096 ? 1 : 8
        let ranges = (0..<parts).map { (files.count * $0 / parts)..<(files.count * ($0 + 1) / parts) }
        let encoded = [[UInt8]](unsafeUninitializedCapacity: parts) { buffer, initialized in
            nonisolated(unsafe) let results = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let range = ranges[part]
                let bound = files[range].reduce(0) { $0 + $1.path.count + pathAndSignatureBound + 20 }
                (results.baseAddress! + part).initialize(to: ByteWriter.bytes(capacity: bound) { out in
                    var previous: [UInt8] = []
                    for file in files[range] {
                        writePath(file.path, after: &previous, to: &out)
                        writeState(of: file, to: &out)
                        writeSignature(file.signature, to: &out)
                    }
                })
            }
            initialized = parts
        }
        let partTable = ByteWriter.bytes(capacity: 20 + 20 * parts) { out in
            out.varint(UInt64(files.count))
            out.varint(UInt64(parts))
            for part in 0..<parts {
                out.varint(UInt64(ranges[part].count))
                out.varint(UInt64(encoded[part].count))
            }
        }
        let bodyCount = head.count + partTable.count + encoded.reduce(0) { $0 + $1.count }
        var bytes = ByteWriter.bytes(capacity: headerLength + bodyCount) { out in
            out.bytes(manifestMagic[...])
            out.uint(UInt64(version), 4)
            out.uint(UInt64(bodyCount), 8)
            out.uint(0, 8) // the body's authenticator, once the body is written
            out.uint(0, 8)
            out.bytes(head[...])
            out.bytes(partTable[...])
            for part in encoded { out.bytes(part[...]) }
        }
        store(SipHash.hash(bytes[headerLength...], key: key), at: 20, in: &bytes)
        store(StoredFormat.checksum(bytes[0..<28]), at: 28, in: &bytes)
        return bytes
    }

    /// Overwrites 8 bytes at `offset` with `value`, little-endian.
    private static func store(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
        for shift in 0..<8 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))) }
    }

    /// The most bytes a path's two varints and a signature take, besides the path's own bytes.
    private static let pathAndSignatureBound = 20 + 50

    /// A path as the bytes it shares with the previous path of its table and the rest.
    static func writePath(_ path: [UInt8], after previous: inout [UInt8], to out: inout ByteWriter) {
        var shared = 0
        while shared < path.count && shared < previous.count && path[shared] == previous[shared] { shared += 1 }
        out.varint(UInt64(shared))
        out.varint(UInt64(path.count - shared))
        out.bytes(path[shared...])
        previous = path
    }

    static func writeSignature(_ signature: FileSignature, to out: inout ByteWriter) {
        out.varint(UInt64(signature.size))
        out.zigzag(signature.modified)
        out.zigzag(signature.changed)
        out.varint(signature.inode)
        out.varint(UInt64(signature.mode))
    }

    /// What tells one stored state of an index from another: the body authenticator of its
    /// manifest's `bytes` (as encoded; checked when decoded).
    package static func identity(ofManifest bytes: [UInt8]) -> UInt64 { StoredFormat.readUInt(bytes, 20, 8) }

    /// The manifest in `bytes`, checked: authenticated under `key`, and a listing a walk could
    /// have made.
    package static func decodeManifest(_ bytes: [UInt8], key: UserKey) throws(Error) -> TreeManifest {
        let bodyLength = try checkHeader(bytes, magic: manifestMagic, total: bytes.count)
        guard bodyLength == bytes.count - headerLength else { throw .corrupt("manifest length") }
        // The authenticator is computed on another core while the listing is decoded (a manifest
        // is a megabyte or more); it is checked before anything decoded is used or reported.
        let authenticator = SlotArray<UInt64>(count: 1)
        let computing = DispatchGroup()
        DispatchQueue.global().async(group: computing) { authenticator.set(0, SipHash.hash(bytes[headerLength...], key: key)) }
        let decoded = Result { () throws(Error) in try decodeBody(bytes) }
        computing.wait()
        guard authenticator.take(0) == StoredFormat.readUInt(bytes, 20, 8) else { throw .notMadeHere }
        return try decoded.get()
    }

    /// The body of the manifest in `bytes` (its header checked), decoded and checked as a listing
    /// a walk could make.
    private static func decodeBody(_ bytes: [UInt8]) throws(Error) -> TreeManifest {
        var reader = StoredFormat.Reader(bytes: bytes, position: headerLength, end: bytes.count)
        guard let nextNumber = UInt32(exactly: try reader.varint()) else { throw .corrupt("bad file number") }
        var none: [UInt8] = []
        let root = try reader.path(after: &none)
        let complete = try reader.byte()
        guard complete <= 1 else { throw .corrupt("bad listing state") }
        var segments: [TreeManifest.Segment] = []
        for _ in 0..<(try reader.count()) {
            let length = try reader.count()
            let name = String(decoding: try reader.bytes(length), as: UTF8.self)
            guard TreeManifest.isSegmentName(name) else { throw .corrupt("bad segment name") }
            let size = Int(clamping: try reader.varint())
            let header = try reader.uint64()
            guard let limit = UInt32(exactly: try reader.varint()), limit <= nextNumber else { throw .corrupt("bad number limit") }
            segments.append(TreeManifest.Segment(name: name, size: size, headerChecksum: header, numberLimit: limit))
        }
        guard !segments.isEmpty else { throw .corrupt("no segment") }
        var listing = TreeListing(root: root, isComplete: complete == 1)
        var previous: [UInt8] = []
        let directoryCount = try reader.count()
        listing.directories.reserveCapacity(directoryCount)
        var folders = ListedFolders(capacity: directoryCount)
        for position in 0..<directoryCount {
            let path = try reader.path(after: &previous)
            // The root first, then each folder after its parent, in walk order: what a walk lists.
            guard position == 0 ? path.isEmpty : isRelativePath(path), folders.appendAfterItsParent(path) else { throw .corrupt("bad folder path") }
            let signature = try reader.signature()
            let hash = try reader.uint64()
            listing.directories.append(TreeListing.Directory(path: path, signature: signature, entriesHash: hash))
        }
        guard !folders.paths.isEmpty else { throw .corrupt("no folder") }
        previous = []
        for _ in 0..<(try reader.count()) {
            let path = try reader.path(after: &previous)
            guard isWatchedPath(path, in: folders) else { throw .corrupt("bad watched path") }
            switch try reader.byte() {
            case 0: listing.watched.append(TreeListing.Watched(path: path, signature: nil, presenceOnly: false))
            case 2: listing.watched.append(TreeListing.Watched(path: path, signature: try reader.signature(), presenceOnly: false))
            case 4: listing.watched.append(TreeListing.Watched(path: path, signature: nil, presenceOnly: true))
            case 5: listing.watched.append(TreeListing.Watched(path: path, signature: TreeListing.Watched.present, presenceOnly: true))
            default: throw .corrupt("bad watched entry")
            }
        }
        let fileCount = try reader.count(), partCount = try reader.count()
        guard partCount >= 1 else { throw .corrupt("no file part") }
        // Numbers of files gone are reused only after a rebuild, which a refresh makes once they
        // outnumber half the live ones (256 at least): more is no index Trawl made, and would
        // size what a refresh allocates per number.
        guard Int(nextNumber) <= 2 * fileCount + 512 else { throw .corrupt("bad file number") }
        var parts: [(files: Int, bytes: Range<Int>)] = []
        for _ in 0..<partCount {
            let files = try reader.count(), length = try reader.count()
            parts.append((files, 0..<length))
        }
        var start = reader.position
        for part in parts.indices {
            parts[part].bytes = start..<(start + parts[part].bytes.count)
            start += parts[part].bytes.count
        }
        guard start == reader.end, parts.reduce(0, { $0 + $1.files }) == fileCount else { throw .corrupt("manifest length") }
        let decoded = SlotArray<Result<[TreeListing.File], Error>>(count: parts.count)
        let partList = parts, listedFolders = folders
        DispatchQueue.concurrentPerform(iterations: partList.count) { part in
            decoded.set(part, Result { () throws(Error) in
                try decodeFiles(partList[part].files, in: bytes, at: partList[part].bytes, below: nextNumber, folders: listedFolders)
            })
        }
        listing.files.reserveCapacity(fileCount)
        for part in parts.indices { listing.files += try decoded.take(part)!.get() }
        return TreeManifest(listing: listing, segments: segments, nextNumber: nextNumber)
    }

    /// A listed file's state: indexed (its number), or why not.
    private static func writeState(of file: TreeListing.File, to out: inout ByteWriter) {
        if let number = file.number { return out.varint(UInt64(number) + firstNumberState) }
        switch file.skip {
        case .binary(let offset)?:
            out.varint(1)
            out.varint(UInt64(offset))
        case .invalidUTF8(let offset)?:
            out.varint(2)
            out.varint(UInt64(offset))
        case .utf16(let bigEndian)?: out.varint(bigEndian ? 4 : 3)
        default: out.varint(0)
        }
    }

    /// The state of a file indexed as number 0 (those below say why a file is not indexed).
    private static let firstNumberState: UInt64 = 5

    /// `count` files from the bytes at `range` (a part of a manifest's listing).
    private static func decodeFiles(_ count: Int, in bytes: [UInt8], at range: Range<Int>, below nextNumber: UInt32,
                                    folders: ListedFolders) throws(Error) -> [TreeListing.File] {
        var reader = StoredFormat.Reader(bytes: bytes, position: range.lowerBound, end: range.upperBound)
        var previous: [UInt8] = []
        // Where the previous path's folder ends (its last `/`, -1 in the root), once checked.
        var previousFolderEnd = Int.min
        var files: [TreeListing.File] = []
        files.reserveCapacity(count)
        for _ in 0..<count {
            var shared = 0
            let path = try reader.path(after: &previous, shared: &shared)
            guard let folderEnd = checkedFolderEnd(path, sharing: shared, previousFolderEnd: previousFolderEnd, folders: folders) else {
                throw .corrupt("bad file path")
            }
            previousFolderEnd = folderEnd
            let state = try reader.varint()
            guard state < UInt64(nextNumber) + firstNumberState else { throw .corrupt("bad file number") }
            let skip: FileSkip?
            switch state {
            case 1, 2:
                guard let offset = Int(exactly: try reader.varint()) else { throw .corrupt("bad skip offset") }
                skip = state == 1 ? .binary(offset: offset) : .invalidUTF8(offset: offset)
            case 3, 4: skip = .utf16(bigEndian: state == 4)
            default: skip = nil
            }
            files.append(TreeListing.File(path: path, number: state < firstNumberState ? nil : UInt32(state - firstNumberState),
                                          signature: try reader.signature(), skip: skip))
        }
        guard reader.position == reader.end else { throw .corrupt("manifest length") }
        return files
    }

    /// Whether `path` is a path below the root as a walk lists it: `/`-separated names, none
    /// empty, `.` or `..`, no NUL.
    static func isRelativePath(_ path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty, memchr(base, 0, bytes.count) == nil else { return false }
            let dot = UInt8(ascii: ".")
            // Each name from `start` to the next `/` (found with memchr: a manifest holds tens of
            // thousands of paths): not empty, not `.` or `..`.
            var start = 0
            while true {
                let slash = memchr(base + start, Int32(UInt8(ascii: "/")), bytes.count - start)
                    .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
                let length = slash - start
                if length == 0 || (bytes[start] == dot && (length == 1 || (length == 2 && bytes[start + 1] == dot))) { return false }
                if slash == bytes.count { return true }
                start = slash + 1
            }
        }
    }

    /// Where the folder of a listed file's `path` ends (its last `/`, -1 in the root) when the
    /// path is relative without `.` or `..` and its folder is listed, else `nil`. The first
    /// `shared` bytes are the previous path's, already checked (its folder ending at
    /// `previousFolderEnd`): only the rest is read, and a file in the previous one's folder is
    /// not looked up (a manifest holds tens of thousands of paths, mostly a name apart).
    static func checkedFolderEnd(_ path: [UInt8], sharing shared: Int, previousFolderEnd: Int, folders: ListedFolders) -> Int? {
        path.withUnsafeBufferPointer { bytes -> Int? in
            let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
            guard !bytes.isEmpty else { return nil }
            // Back to the start of the name the new bytes begin in.
            var start = previousFolderEnd == Int.min ? 0 : min(shared, bytes.count)
            while start > 0 && bytes[start - 1] != slash { start -= 1 }
            var nameStart = start, lastSlash = start - 1
            func isName(_ from: Int, _ to: Int) -> Bool {
                to > from && !(bytes[from] == dot && (to - from == 1 || (to - from == 2 && bytes[from + 1] == dot)))
            }
            for index in start..<bytes.count {
                let byte = bytes[index]
                if byte == 0 { return nil }
                if byte == slash {
                    guard isName(nameStart, index) else { return nil }
                    lastSlash = index
                    nameStart = index + 1
                }
            }
            guard isName(nameStart, bytes.count) else { return nil }
            // The same folder as the previous path's: its bytes are shared and end where its did.
            if lastSlash == previousFolderEnd && lastSlash < shared { return lastSlash }
            return folders.contains(path[..<max(lastSlash, 0)]) ? lastSlash : nil
        }
    }

    /// The folder part of a relative path (empty for the root).
    static func parent(of path: [UInt8]) -> [UInt8] {
        path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[..<$0]) } ?? []
    }

    /// Whether `path` is one a walk watches: an ignore file, `.git` or `.git/info/exclude` in a
    /// listed folder or in a folder above the root (`../` repeated).
    static func isWatchedPath(_ path: [UInt8], in folders: ListedFolders) -> Bool {
        let up = Array("../".utf8)
        var rest = path[...]
        var above = false
        while rest.starts(with: up) {
            rest = rest.dropFirst(up.count)
            above = true
        }
        let names = TreeListing.ignoreFileNames + [TreeListing.repositoryMarker, TreeListing.excludeFile]
        if above { return names.contains { $0[...] == rest } }
        return names.contains { name in
            guard rest.count >= name.count, rest.suffix(name.count).elementsEqual(name) else { return false }
            if rest.count == name.count { return true } // in the root
            let folderEnd = rest.endIndex - name.count - 1
            return rest[folderEnd] == UInt8(ascii: "/") && folders.contains(rest[..<folderEnd])
        }
    }

    // MARK: Segments

    /// The bytes of a segment holding `postings`: the format's reference encoder, which
    /// ``SegmentBuilder`` (what writes segments) is tested against byte for byte.
    package static func encodeSegment(_ postings: NGramIndex) -> [UInt8] {
        let keys = postings.postings.keys.sorted()
        var table: [UInt8] = [], lists: [UInt8] = []
        table.reserveCapacity(keys.count * tableEntryLength + 8)
        for key in keys {
            let start = lists.count
            let units = postings.postings[key]!.units
            StoredFormat.appendVarint(UInt64(units.count), to: &lists)
            var last: UInt32 = 0
            for (position, unit) in units.enumerated() {
                StoredFormat.appendVarint(UInt64(position == 0 ? unit : unit - last), to: &lists)
                last = unit
            }
            appendTableEntry(key: key, offset: start, length: lists.count - start, checksum: StoredFormat.checksum(lists[start...]), to: &table)
        }
        return segment(table: table, keyCount: keys.count, lists: lists)
    }

    /// Appends a trigram table entry: the key, where its list is in the lists, its length and
    /// its checksum.
    static func appendTableEntry(key: UInt32, offset: Int, length: Int, checksum: UInt64, to table: inout [UInt8]) {
        table.append(UInt8(key >> 16 & 0xFF))
        table.append(UInt8(key >> 8 & 0xFF))
        table.append(UInt8(key & 0xFF))
        StoredFormat.appendUInt(UInt64(offset), 4, to: &table)
        StoredFormat.appendUInt(UInt64(length), 4, to: &table)
        StoredFormat.appendUInt(checksum, 8, to: &table)
    }

    /// A segment's bytes: the header, the trigram table (`keyCount` entries, its checksum
    /// appended here) and the lists.
    static func segment(table: [UInt8], keyCount: Int, lists: [UInt8]) -> [UInt8] {
        let out = StoredHeader(version: version, first: UInt64(keyCount), second: UInt64(lists.count)).bytes(magic: segmentMagic)
        var tableChecksum: [UInt8] = []
        StoredFormat.appendUInt(StoredFormat.checksum(table[...]), 8, to: &tableChecksum)
        return out + table + tableChecksum + lists
    }

    /// The checksum of a segment's header, as its manifest records it.
    package static func headerChecksum(ofSegment bytes: [UInt8]) -> UInt64 {
        bytes.count >= headerLength ? StoredFormat.readUInt(bytes, headerLength - 8, 8) : 0
    }

    /// Checks a header (magic, version, own checksum); returns the first u64 after the version.
    static func checkHeader(_ header: [UInt8], magic: [UInt8], total: Int) throws(Error) -> Int {
        guard total >= headerLength else { throw .notAnIndex }
        return Int(clamping: try StoredHeader(checking: header, magic: magic, versions: version...version).first)
    }
}

extension StoredFormat.Reader {
    typealias Error = StoredFormatError

    mutating func path(after previous: inout [UInt8]) throws(Error) -> [UInt8] {
        var shared = 0
        return try path(after: &previous, shared: &shared)
    }

    /// ``path(after:)``, also giving how many bytes it shares with `previous`.
    mutating func path(after previous: inout [UInt8], shared sharedCount: inout Int) throws(Error) -> [UInt8] {
        let shared = try varint()
        guard shared <= UInt64(previous.count) else { throw .corrupt("bad path") }
        let rest = try bytes(try count())
        // One allocation per path (a listing holds tens of thousands).
        let path = [UInt8](unsafeUninitializedCapacity: Int(shared) + rest.count) { buffer, initialized in
            previous.withUnsafeBufferPointer { buffer.baseAddress!.initialize(from: $0.baseAddress!, count: Int(shared)) }
            rest.withUnsafeBufferPointer { (buffer.baseAddress! + Int(shared)).initialize(from: $0.baseAddress!, count: rest.count) }
            initialized = Int(shared) + rest.count
        }
        previous = path
        sharedCount = Int(shared)
        return path
    }

    mutating func signature() throws(Error) -> FileSignature {
        let size = Int(clamping: try varint())
        let modified = try zigzag(), changed = try zigzag()
        let inode = try varint()
        guard let mode = UInt32(exactly: try varint()) else { throw .corrupt("bad mode") }
        return FileSignature(size: size, modified: modified, changed: changed, inode: inode, mode: mode)
    }
}

/// What a tree's manifest holds: the listing and the segments its posting lists are in.
package struct TreeManifest: Sendable, Equatable {
    /// A segment file, as the manifest names it.
    package struct Segment: Sendable, Hashable {
        /// The file name inside `.trawl/` (`postings-` and hex digits).
        package var name: String
        package var size: Int
        /// The checksum of its header: a segment file replaced under the same name is refused.
        package var headerChecksum: UInt64
        /// Every file number in its postings is below this (the index's next number when it was
        /// written): a posting at or past it is damage, even once later files take such numbers.
        package var numberLimit: UInt32

        package init(name: String, size: Int, headerChecksum: UInt64, numberLimit: UInt32) {
            self.name = name
            self.size = size
            self.headerChecksum = headerChecksum
            self.numberLimit = numberLimit
        }
    }

    package var listing: TreeListing
    /// The first is the base; the others hold files indexed by later refreshes.
    package var segments: [Segment]
    /// The number the next indexed file gets (numbers are never reused until a rebuild).
    package var nextNumber: UInt32

    package init(listing: TreeListing, segments: [Segment], nextNumber: UInt32) {
        self.listing = listing
        self.segments = segments
        self.nextNumber = nextNumber
    }

    static let segmentPrefix = "postings-"

    /// Whether `name` can be a segment's file name (no path separators, nothing else).
    static func isSegmentName(_ name: String) -> Bool {
        name.hasPrefix(segmentPrefix) && name.count > segmentPrefix.count
            && name.dropFirst(segmentPrefix.count).allSatisfy { $0.isHexDigit && $0.isASCII }
    }
}

/// The folders of a listing being read, in walk order: each must follow its parent, and a file's
/// or a watched path's folder must be one of them (found by bisection: no hashing of paths, which
/// cost a search more than the rest of reading the manifest).
struct ListedFolders: Sendable {
    private(set) var paths: [[UInt8]] = []
    /// Each folder's position by a hash of its bytes (hashing an array of bytes through
    /// `Hashable` costs a call per byte).
    private var positions: [UInt64: Int] = [:]

    /// Room for `capacity` folders.
    init(capacity: Int) {
        paths.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// Appends `path` when it comes after the last folder in walk order and its parent is listed
    /// (the root, empty, has none); returns whether it did.
    mutating func appendAfterItsParent(_ path: [UInt8]) -> Bool {
        if path.isEmpty {
            guard paths.isEmpty else { return false }
        } else {
            guard let last = paths.last, TreeListing.walkOrderPrecedes(last, path),
                  contains(path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)]) else { return false }
        }
        let key = ListedFolders.hash(path[...])
        if positions[key] == nil { positions[key] = paths.count }
        paths.append(path)
        return true
    }

    /// Whether `folder` is listed.
    func contains(_ folder: ArraySlice<UInt8>) -> Bool {
        guard let position = positions[ListedFolders.hash(folder)] else { return false }
        if ListedFolders.same(folder, paths[position]) { return true }
        // Two folders with one hash (rare): by bisection.
        var low = 0, high = paths.count
        while low < high {
            let middle = (low + high) / 2
            if TreeListing.walkOrderPrecedes(paths[middle], folder) { low = middle + 1 } else { high = middle }
        }
        return low < paths.count && ListedFolders.same(folder, paths[low])
    }

    /// FNV-1a of the bytes.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
    }

    /// Whether the bytes are the same (compared at once, not element by element).
    static func same(_ first: ArraySlice<UInt8>, _ second: [UInt8]) -> Bool {
        first.count == second.count && first.withUnsafeBytes { first in
            second.withUnsafeBytes { first.count == 0 || memcmp(first.baseAddress!, $0.baseAddress!, first.count) == 0 }
        }
    }
}
