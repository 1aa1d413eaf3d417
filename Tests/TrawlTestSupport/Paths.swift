import Foundation

/// The package's folder (Tests/TrawlTestSupport/ -> the root; Bench reaches these files through a link).
public let packageDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The Fixtures folder of the package.
public let fixturesDirectory = packageDirectory.appendingPathComponent("Fixtures")

/// The folder of shared resources beside the project (traces, tools), if present.
public func sharedDirectory() -> URL {
    packageDirectory.deletingLastPathComponent().appendingPathComponent("shared")
}

/// The folder that holds this test process's scratch folders; removed when the process exits, so
/// that test runs do not leave trees behind in the temporary directory.
public let scratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-tests-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return root
}()

/// A path for a new scratch folder or file named after `label`, under ``scratchRoot`` (not created).
public func scratchURL(_ label: String) -> URL {
    scratchRoot.appendingPathComponent("\(label)-\(UUID().uuidString)")
}

/// A new empty folder under ``scratchRoot``.
public func temporaryFolder(_ label: String) throws -> URL {
    let folder = scratchURL(label)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Whether this platform has the tree watcher (inotify): its tests are skipped elsewhere, with
/// that reason.
public let watcherAvailable: Bool = {
    #if os(Linux)
    true
    #else
    false
    #endif
}()
