// swift-tools-version: 6.1
// Benchmarks live in their own package (path dependency on the root) so that `swift test` at the
// root never builds benchmark-only dependencies.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder: find the root's name, so that a checkout in a
// folder of any name builds.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "TrawlBench",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // The root's test support (a link to Tests/TrawlTestSupport): process runner, tool lookup,
        // seeded texts, the PCRE2 reference. Not a product of the root: it is no part of the API.
        .target(name: "BenchTestSupport", dependencies: [.product(name: "Trawl", package: root)]),
        .executableTarget(
            name: "trawl-bench",
            dependencies: [
                .product(name: "Trawl", package: root),
                "BenchTestSupport",
                .product(name: "_RopeModule", package: "swift-collections"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
