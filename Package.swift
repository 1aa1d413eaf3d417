// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Trawl",
    // Mutex and Atomic (Synchronization) and String(validating:as:) need macOS 15, iOS 18, visionOS 2;
    // Observation needs less. Only Linux is built and tested here (Scripts/check-platforms.py
    // checks the rest from the sources).
    platforms: [.macOS(.v15), .iOS(.v18), .visionOS(.v2)],
    products: [
        .executable(name: "trawl", targets: ["trawl"]),
        .library(name: "Trawl", targets: ["Trawl"]),
        .library(name: "TrawlText", targets: ["TrawlText"]),
        .library(name: "TrawlMatch", targets: ["TrawlMatch"]),
        .library(name: "TrawlFiles", targets: ["TrawlFiles"]),
        .library(name: "TrawlFind", targets: ["TrawlFind"]),
        .library(name: "TrawlIndex", targets: ["TrawlIndex"]),
        .library(name: "TrawlCatalog", targets: ["TrawlCatalog"]),
        // Shared by the test targets and Bench: process runner, tool lookup, fixtures, random and
        // chunked texts, the PCRE2 oracle. Not part of the API.
        .library(name: "TrawlTestSupport", targets: ["TrawlTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation` (the DocC catalogs of TrawlFind and TrawlCatalog).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "TrawlKernels"),
        .target(name: "TrawlText", dependencies: ["TrawlKernels"]),
        .target(name: "TrawlMatch", dependencies: ["TrawlText", "TrawlKernels", "CPCRE2"]),
        .target(name: "CTrawlSystem"),
        .target(name: "TrawlFiles", dependencies: [
            "TrawlText", "TrawlMatch", "TrawlKernels", "CTrawlSystem",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TrawlIndex", dependencies: [
            "TrawlText", "TrawlMatch", "TrawlFiles", "CTrawlSystem", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TrawlFind", dependencies: ["TrawlText", "TrawlMatch", "TrawlIndex"]),
        .target(name: "TrawlCatalog", dependencies: ["TrawlFind", "TrawlIndex", "TrawlMatch", "TrawlFiles", "TrawlKernels", "CZlib"]),
        .target(name: "Trawl", dependencies: ["TrawlText", "TrawlMatch", "TrawlFiles", "TrawlFind", "TrawlIndex", "TrawlCatalog"]),
        .target(name: "TrawlCLI", dependencies: ["TrawlText", "TrawlMatch", "TrawlKernels", "TrawlFiles", "TrawlIndex", "TrawlCatalog"]),
        .executableTarget(name: "trawl", dependencies: ["TrawlCLI", "TrawlCatalog", "TrawlFiles", "TrawlMatch", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "TrawlTestSupport", dependencies: ["TrawlMatch", "TrawlText", "CPCRE2"], path: "Tests/TrawlTestSupport"),
        .testTarget(name: "TrawlTextTests", dependencies: ["TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlMatchTests", dependencies: ["TrawlMatch", "TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlFindTests", dependencies: ["TrawlFind", "TrawlMatch", "TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlIndexTests", dependencies: ["TrawlIndex", "TrawlFiles", "TrawlMatch", "TrawlText", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlCatalogTests", dependencies: ["TrawlCatalog", "TrawlFind", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlFilesTests", dependencies: ["TrawlFiles", "TrawlMatch", "TrawlKernels", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlCLITests", dependencies: ["TrawlCLI", "TrawlFiles", "TrawlIndex", "TrawlCatalog", "trawl", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
    ],
    swiftLanguageModes: [.v6]
)
