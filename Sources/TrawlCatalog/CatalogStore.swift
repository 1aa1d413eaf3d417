#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlStorage

/// Where a catalog lives on disk and how it is written: `FOLDER/catalog`, replaced atomically.
public enum CatalogStore {
    /// The default folder, under the current folder's `.trawl/`.
    public static let defaultFolder: FilePath = ".trawl/catalog"

    /// The file holding the catalog stored in `folder`.
    public static func path(in folder: FilePath) -> FilePath { folder.appending("catalog") }

    /// Writes `catalog` into `folder` (created with its parents when missing), atomically.
    public static func save(_ catalog: Catalog, in folder: FilePath) throws(Errno) {
        try save(encoded: CatalogFormat.encoded(catalog), in: folder)
    }

    /// Writes the catalog `encoded` holds (``CatalogFormat``) into `folder` (created with its
    /// parents when missing), atomically.
    public static func save(encoded: CatalogFormat.Encoded, in folder: FilePath) throws(Errno) {
        // The default folder is the tree's own (a tree may ship `.trawl` as a link out of it):
        // each of its folders must be a real one. A folder the user names is taken as named.
        try makeFolders(folder, followingLinks: folder != defaultFolder)
        try writeAtomically(parts: encoded.parts, to: path(in: folder))
    }

    /// The most bytes a stored catalog may take (ten times a million items'): a larger one is
    /// refused before anything is allocated for it.
    static let sizeLimit = 4 << 30

    /// Reads the catalog stored in `folder`. The file is opened without following a link and
    /// without blocking (a FIFO or device there is refused, not waited on), and its header is
    /// read and checked before its body, whose length must be the file's.
    public static func load(from folder: FilePath) throws -> Catalog {
        let file = path(in: folder)
        let opened = file.withPlatformString { open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard opened >= 0 else {
            if errno == ELOOP { throw StoredFormatError.unusable("\(file): a symbolic link, not a stored catalog; refused") }
            throw Errno(rawValue: errno)
        }
        let descriptor = FileDescriptor(rawValue: opened)
        return try descriptor.closeAfter { () throws -> Catalog in
            var status = stat()
            guard fstat(opened, &status) == 0 else { throw Errno(rawValue: errno) }
            guard status.st_mode & S_IFMT == S_IFREG else { throw StoredFormatError.unusable("\(file): not a regular file; refused") }
            let size = Int(status.st_size)
            let header = try readExactly(opened, at: 0, count: min(size, CatalogFormat.headerLength))
            try CatalogFormat.checkHeader(header, fileSize: size)
            guard size <= sizeLimit else { throw StoredFormatError.corrupt("a catalog of \(size) bytes, more than any catalog holds") }
            // Mapped when large (``FileBytes``): a version 4 catalog's items are read from it
            // when shown, and the rest of it is copied out once.
            return try CatalogFormat.decode(try FileBytes.read(descriptor))
        }
    }

    /// `count` bytes at `offset` of the open file, or a failure when it has fewer.
    private static func readExactly(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        guard let bytes = readBytes(descriptor, at: offset, count: count) else { throw StoredFormatError.corrupt("truncated") }
        return bytes
    }

    private static func makeFolders(_ folder: FilePath, followingLinks: Bool) throws(Errno) {
        var path = folder.root.map { FilePath(root: $0) } ?? FilePath()
        for component in folder.components {
            path.append(component)
            switch statPath(path, followLinks: followingLinks) {
            case .success(let status):
                guard status.st_mode & S_IFMT == S_IFDIR else { throw followingLinks ? .notDirectory : .tooManySymbolicLinkLevels }
            case .failure:
                guard path.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
            }
        }
    }
}
