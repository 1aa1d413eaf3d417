#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import TrawlIndex

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
        try makeFolders(folder)
        try TreeIndexStore.writeAtomically(parts: encoded.parts, to: path(in: folder))
    }

    /// Reads the catalog stored in `folder`.
    public static func load(from folder: FilePath) throws -> Catalog {
        let descriptor = try FileDescriptor.open(path(in: folder), .readOnly, options: .closeOnExec)
        let read = try descriptor.closeAfter { descriptor.readToEnd() }
        if let error = read.error { throw error }
        return try CatalogFormat.decode(read.bytes)
    }

    private static func makeFolders(_ folder: FilePath) throws(Errno) {
        var path = folder.root.map { FilePath(root: $0) } ?? FilePath()
        for component in folder.components {
            path.append(component)
            if case .failure = path.status() {
                guard path.withPlatformString({ mkdir($0, 0o755) }) == 0 || errno == EEXIST else { throw Errno(rawValue: errno) }
            }
        }
    }
}
