import Foundation
import Testing
@_exported import TrawlTestSupport

/// The built binary, next to the test bundle in the build folder.
let trawlBinary: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("trawl")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return packageDirectory.appendingPathComponent(".build/debug/trawl")
}()

let fixtures = fixturesDirectory

/// Runs trawl with `arguments` in `directory`, feeding `input` on stdin (or /dev/null).
@discardableResult
func trawl(_ arguments: [String], in directory: URL? = nil, input: String? = nil, environment: [String: String] = [:],
           limit seconds: Double? = nil) throws -> Run {
    try Child.start(trawlBinary.path, arguments, in: directory, input: input, environment: environment).finish(limit: seconds)
}

/// A fresh copy of a Fixtures folder in a temporary directory.
func copyOfFixture(_ name: String) throws -> URL {
    let destination = scratchURL("test")
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    let target = destination.appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: target)
    // A repository, so that .gitignore applies (as in ripgrep, it counts only inside one).
    try FileManager.default.createDirectory(at: target.appendingPathComponent(".git"), withIntermediateDirectories: true)
    return target
}

