// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Trawl",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "trawl", targets: ["trawl"]),
        .library(name: "Trawl", targets: ["Trawl"]),
        .library(name: "TrawlText", targets: ["TrawlText"]),
        .library(name: "TrawlMatch", targets: ["TrawlMatch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        .target(name: "TrawlKernels"),
        .target(name: "TrawlText", dependencies: ["TrawlKernels"]),
        .target(name: "TrawlMatch", dependencies: ["TrawlText", "TrawlKernels", "CPCRE2"]),
        .target(name: "Trawl", dependencies: ["TrawlText", "TrawlMatch"]),
        .target(name: "TrawlCLI", dependencies: ["TrawlText", "TrawlMatch", "TrawlKernels"]),
        .executableTarget(name: "trawl", dependencies: ["TrawlCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "TrawlTestSupport", path: "Tests/TrawlTestSupport"),
        .testTarget(name: "TrawlTextTests", dependencies: ["TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlMatchTests", dependencies: ["TrawlMatch", "TrawlText", "TrawlTestSupport"]),
        .testTarget(name: "TrawlCLITests", dependencies: ["TrawlCLI", "trawl"]),
    ],
    swiftLanguageModes: [.v6]
)
