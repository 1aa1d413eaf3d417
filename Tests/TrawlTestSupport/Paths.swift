import Foundation

/// The package's folder (Tests/TrawlTestSupport/ -> the root).
public let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The Fixtures folder of the package.
public let fixturesDirectory = packageDirectory.appendingPathComponent("Fixtures")

/// The folder of shared resources beside the project (traces, tools), if present.
public func sharedDirectory() -> URL {
    packageDirectory.deletingLastPathComponent().appendingPathComponent("shared")
}

/// A new empty folder under the temporary directory.
public func temporaryFolder(_ label: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
