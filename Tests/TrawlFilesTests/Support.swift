import Foundation
import SystemPackage
@_exported import TrawlTestSupport
import TrawlStorage


/// Writes `bytes` at `path` (raw bytes: the name need not be UTF-8).
func writeFile(_ path: FilePath, _ bytes: [UInt8]) throws {
    let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
    defer { try? descriptor.close() }
    _ = try bytes.withUnsafeBytes { try descriptor.writeAll($0) }
}

/// A file holding `bytes` in a fresh temporary folder named after `label`.
func temporaryFile(_ bytes: [UInt8], label: String) throws -> FilePath {
    let path = FilePath(try temporaryFolder(label).appendingPathComponent("file").path)
    try writeFile(path, bytes)
    return path
}

func makeFolder(_ path: FilePath) throws {
    guard path.withPlatformString({ mkdir($0, 0o755) }) == 0 else { throw Errno(rawValue: errno) }
}
