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
        .library(name: "TrawlNGram", targets: ["TrawlNGram"]),
        .library(name: "TrawlMatch", targets: ["TrawlMatch"]),
        .library(name: "TrawlFiles", targets: ["TrawlFiles"]),
        .library(name: "TrawlIndex", targets: ["TrawlIndex"]),
        .library(name: "TrawlFind", targets: ["TrawlFind"]),
        .library(name: "TrawlCatalog", targets: ["TrawlCatalog"]),
        .library(name: "TrawlSearchable", targets: ["TrawlSearchable"]),
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
        // Layers, bottom up (ARCHITECTURE.md). C kernels and system calls; internal Swift targets
        // for stored bytes and parallel work; then the engines; the presentation models on top.
        .target(name: "TrawlKernels"),
        .target(name: "CTrawlSystem"),
        .target(name: "TrawlStorage", dependencies: ["CTrawlSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "TrawlConcurrency"),
        .target(name: "TrawlText", dependencies: ["TrawlKernels"]),
        .target(name: "TrawlNGram", dependencies: ["TrawlText", "TrawlKernels"]),
        .target(name: "TrawlMatch", dependencies: ["TrawlText", "TrawlNGram", "TrawlKernels", "CPCRE2"]),
        .target(name: "TrawlFiles", dependencies: [
            "TrawlText", "TrawlMatch", "TrawlKernels", "CTrawlSystem", "TrawlStorage", "TrawlConcurrency",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TrawlIndex", dependencies: [
            "TrawlText", "TrawlNGram", "TrawlMatch", "TrawlFiles", "TrawlStorage", "TrawlConcurrency", "CTrawlSystem",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TrawlFind", dependencies: ["TrawlText", "TrawlNGram", "TrawlMatch", "TrawlIndex"]),
        .target(name: "TrawlCatalog", dependencies: [
            "TrawlNGram", "TrawlStorage", "TrawlConcurrency", "TrawlKernels", "CZlib", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "TrawlSearchable", dependencies: ["TrawlFind", "TrawlCatalog"]),
        .target(name: "Trawl", dependencies: [
            "TrawlText", "TrawlNGram", "TrawlMatch", "TrawlFiles", "TrawlFind", "TrawlIndex", "TrawlCatalog", "TrawlSearchable",
        ]),
        .target(name: "TrawlCLI", dependencies: [
            "TrawlText", "TrawlMatch", "TrawlKernels", "TrawlFiles", "TrawlIndex", "TrawlCatalog", "TrawlSearchable", "TrawlStorage",
            "TrawlConcurrency",
        ]),
        .executableTarget(name: "trawl", dependencies: [
            "TrawlCLI", "TrawlCatalog", "TrawlFiles", "TrawlMatch", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "TrawlTestSupport", dependencies: ["TrawlMatch", "TrawlText", "CPCRE2"], path: "Tests/TrawlTestSupport"),
        .testTarget(name: "TrawlTextTests", dependencies: ["TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlMatchTests", dependencies: ["TrawlMatch", "TrawlNGram", "TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlFindTests", dependencies: ["TrawlFind", "TrawlSearchable", "TrawlMatch", "TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlIndexTests", dependencies: ["TrawlIndex", "TrawlNGram", "TrawlStorage", "TrawlConcurrency", "TrawlFiles", "TrawlMatch", "TrawlText", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlCatalogTests", dependencies: ["TrawlCatalog", "TrawlSearchable", "TrawlNGram", "TrawlStorage", "TrawlFind", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlFilesTests", dependencies: ["TrawlFiles", "TrawlStorage", "TrawlConcurrency", "TrawlMatch", "TrawlKernels", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
        .testTarget(name: "TrawlCLITests", dependencies: ["Trawl", "TrawlCLI", "TrawlFiles", "TrawlIndex", "TrawlNGram", "TrawlStorage", "TrawlMatch", "TrawlCatalog", "trawl", "TrawlTestSupport", .product(name: "SystemPackage", package: "swift-system")]),
    ],
    swiftLanguageModes: [.v6]
)
