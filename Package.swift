// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rws",
    products: [
        .library(name: "SSHClient", targets: ["SSHClient"]),
        .library(name: "SessionHistory", targets: ["SessionHistory"]),
        .library(name: "SSHConfig", targets: ["SSHConfig"]),
        .library(name: "RemoteWorkspace", targets: ["RemoteWorkspace"]),
        .executable(name: "rws", targets: ["rws"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibSSH2",
            pkgConfig: "libssh2",
            providers: [.apt(["libssh2-1-dev"])]
        ),
        // zlib (a dependency of libssh2 already): gunzips session bytes the box sent compressed.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The one place system calls are made, and the one that says which platforms rws builds on (Linux).
        .target(name: "Platform"),
        .target(name: "SSHClient", dependencies: ["CLibSSH2", "Platform", "SSHConfig", .product(name: "Logging", package: "swift-log")]),
        .target(name: "SessionHistory", dependencies: ["Platform"]),
        .target(name: "SSHConfig", dependencies: ["Platform"]),
        .target(name: "RemoteWorkspace", dependencies: ["SSHClient", "SessionHistory", "CZlib", "Platform"]),
        .executableTarget(
            name: "rws",
            dependencies: [
                "SSHClient", "SessionHistory", "SSHConfig", "RemoteWorkspace", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["GitCommitPlugin"]
        ),
        // The commit `rws --version` names, read from .git's files when rws is built (no git process).
        .executableTarget(name: "git-commit-reader"),
        .plugin(name: "GitCommitPlugin", capability: .buildTool(), dependencies: ["git-commit-reader"]),
        .target(name: "RWSTestSupport", dependencies: ["SSHClient", "Platform"]),
        // The throwaway sshd of the demo and the benchmarks: RWSTestSupport's server, started from a script.
        .executableTarget(name: "rws-sandbox", dependencies: ["RWSTestSupport", "SSHClient", "Platform"]),
        // Every benchmark, a subcommand an area (`rws-bench --help`); scripts/bench runs them.
        .executableTarget(
            name: "rws-bench", dependencies: ["RemoteWorkspace", "RWSTestSupport", "SSHClient", "SessionHistory", "Platform"]),
        .testTarget(
            name: "SSHClientTests",
            dependencies: [
                "SSHClient", "RWSTestSupport", "Platform", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "SessionHistoryTests", dependencies: ["SessionHistory", "RWSTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SSHConfigTests", dependencies: ["SSHConfig", "RWSTestSupport"]),
        .testTarget(
            name: "RemoteWorkspaceTests",
            dependencies: [
                "RemoteWorkspace", "RWSTestSupport", "SessionHistory", "SSHClient", "Platform",
            ]),
        // Depends on the executables so that building the tests builds the binaries they run.
        .testTarget(
            name: "RWSCLITests", dependencies: ["RWSTestSupport", "SSHClient", "SSHConfig", "Platform", "rws", "git-commit-reader"]),
    ],
    swiftLanguageModes: [.v6]
)
