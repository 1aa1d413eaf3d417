import Foundation
import Testing

/// The result of running the built `trawl` binary.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// The built binary, next to the test bundle in the build folder.
let trawlBinary: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trawl")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/trawl")
}()

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixtures = packageRoot.appendingPathComponent("Fixtures")

/// Runs trawl with `arguments` in `directory`, feeding `input` on stdin (or /dev/null).
@discardableResult
func trawl(_ arguments: [String], in directory: URL? = nil, input: String? = nil, environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = trawlBinary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let input {
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
    } else {
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
    // Read both pipes concurrently so a full stderr pipe cannot stall the child.
    let errorData = LockedData()
    let reader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
               stderr: String(decoding: errorData.value, as: UTF8.self))
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var done = false
    func set(_ value: Data) { lock.lock(); data = value; done = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A fresh copy of a Fixtures folder in a temporary directory.
func copyOfFixture(_ name: String) throws -> URL {
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent("trawl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    let target = destination.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: target)
    return target
}

func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

/// Every regular file under `root`, by relative path, with its bytes.
func snapshotTree(_ root: URL) throws -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
    for case let url as URL in enumerator {
        guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
        result[String(url.path.dropFirst(root.path.count + 1))] = try bytes(url)
    }
    return result
}

func tool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/usr/local/bin/\(name)", "/opt/homebrew/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
