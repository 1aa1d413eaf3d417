// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Trawl",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Trawl", targets: ["Trawl"]),
        .library(name: "TrawlText", targets: ["TrawlText"]),
        .library(name: "TrawlMatch", targets: ["TrawlMatch"]),
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
        .executableTarget(name: "trawl-rope-demo", dependencies: ["TrawlText"]),
        .testTarget(name: "TrawlTextTests", dependencies: ["TrawlText"]),
        .testTarget(name: "TrawlMatchTests", dependencies: ["TrawlMatch", "TrawlText"]),
    ],
    swiftLanguageModes: [.v6]
)
