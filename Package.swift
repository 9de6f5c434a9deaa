// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "rws",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SSHClient", targets: ["SSHClient"]),
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
        .testTarget(name: "SSHClientTests", dependencies: ["SSHClient"]),
        .target(name: "SSHConfig"),
        .testTarget(name: "SSHConfigTests", dependencies: ["SSHConfig"]),
    ],
    swiftLanguageModes: [.v6]
)
