import Foundation

@testable import SSHConfig

/// A temporary directory standing in for the home directory, with `.ssh` in
/// it, so tests never read the real `~/.ssh`.
struct FakeHome {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("rws-sshconfig-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path + "/.ssh", withIntermediateDirectories: true)
    }

    /// Writes `text` to `relativePath` under the home directory and returns the full path.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A local context whose home is this directory.
    var local: LocalContext {
        LocalContext(home: path, userName: "alice", userID: 1000, hostName: "workstation.lan")
    }

    /// Parses `text` as `~/.ssh/config` of this home.
    func config(_ text: String) throws -> SSHConfigFile {
        let file = try write(".ssh/config", text)
        return try SSHConfigFile.load(path: file, home: path)
    }
}

/// Runs `body` with a fresh fake home and removes it afterwards.
@discardableResult
func withFakeHome<T>(_ body: (FakeHome) throws -> T) throws -> T {
    let home = try FakeHome()
    defer { home.remove() }
    return try body(home)
}

/// Resolves `host` against `config` text with no flags and no environment.
func resolve(
    _ host: String, in config: String, home: FakeHome,
    flags: SettingOverrides = SettingOverrides(), environment: [String: String] = [:]
) throws -> ResolvedHost {
    var flags = flags
    flags.host = try HostArgument(parsing: host)
    return try Resolution.resolve(
        flags: flags, environment: environment, config: try home.config(config), local: home.local)
}
