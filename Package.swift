// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rws",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SSHClient", targets: ["SSHClient"]),
        .library(name: "SessionHistory", targets: ["SessionHistory"]),
        .library(name: "SSHConfig", targets: ["SSHConfig"]),
    ],
    dependencies: [],
    targets: [
        .systemLibrary(
            name: "CLibSSH2",
            pkgConfig: "libssh2",
            providers: [.apt(["libssh2-1-dev"]), .brew(["libssh2"])]
        ),
        .target(name: "SSHClient", dependencies: ["CLibSSH2"]),
        .target(name: "RWSTestSupport", dependencies: ["SSHClient"]),
        .testTarget(name: "SSHClientTests", dependencies: ["SSHClient", "RWSTestSupport"]),
        .target(name: "SessionHistory"),
        .testTarget(name: "SessionHistoryTests", dependencies: ["SessionHistory"], exclude: ["Fixtures"]),
        .executableTarget(name: "HistoryBenchmark", dependencies: ["SessionHistory"]),
        .target(name: "SSHConfig"),
        .testTarget(name: "SSHConfigTests", dependencies: ["SSHConfig"]),
    ],
    swiftLanguageModes: [.v6]
)
