import Foundation
import RWSTestSupport
import Testing

/// Runs the installed OpenSSH client to see how it resolves a configuration.
enum OpenSSH {
    static let path = "/usr/bin/ssh"

    /// What `ssh -G` prints when the config names no identity file.
    static let defaultIdentityFiles = [
        "~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ecdsa_sk", "~/.ssh/id_ed25519",
        "~/.ssh/id_ed25519_sk", "~/.ssh/id_xmss", "~/.ssh/id_dsa",
    ]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `ssh -G` output as `key value` pairs, in order.
    struct Output {
        let pairs: [(key: String, value: String)]

        func values(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
        func value(_ key: String) -> String? { values(key).first }
    }

    /// `ssh -G -F file host`, with the real home directory in paths replaced by `fakeHome`.
    static func config(for host: String, file: String, fakeHome: String, realHome: String) throws -> Output {
        let text = try run(["-G", "-F", file, host], fakeHome: fakeHome).stdout
        let pairs = text.split(whereSeparator: \.isNewline).map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            let value = parts.count > 1 ? String(parts[1]) : ""
            return (key: String(parts[0]), value: rehome(value, from: realHome, to: fakeHome))
        }
        return Output(pairs: pairs)
    }

    /// The identity files `ssh -v` reports loading (expanded), without the
    /// `-cert` companions it also tries. The ProxyCommand closes the connection
    /// at once, after identities are loaded and before anything is sent.
    static func loadedIdentities(for host: String, file: String, fakeHome: String, realHome: String) throws -> [String] {
        let arguments = ["-v", "-F", file, "-o", "ProxyCommand=true", "-o", "BatchMode=yes", host]
        let log = try run(arguments, fakeHome: fakeHome, expectSuccess: false).stderr
        let prefix = "debug1: identity file "
        var files: [String] = []
        for line in log.split(whereSeparator: \.isNewline) where line.hasPrefix(prefix) {
            guard let typeRange = line.range(of: " type ", options: .backwards) else { continue }
            let path = rehome(
                String(line[line.index(line.startIndex, offsetBy: prefix.count)..<typeRange.lowerBound]),
                from: realHome, to: fakeHome)
            if let last = files.last, path == last + "-cert" { continue }
            files.append(path)
        }
        return files
    }

    private static func rehome(_ value: String, from realHome: String, to fakeHome: String) -> String {
        value.replacingOccurrences(of: realHome + "/", with: fakeHome + "/")
    }

    private static func run(
        _ arguments: [String], fakeHome: String, expectSuccess: Bool = true
    ) throws -> (stdout: String, stderr: String) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(path) not found: install openssh-client (apt-get install openssh-client)")
        }
        // ssh takes ~ from the password database, not $HOME; HOME is set anyway
        // so that nothing else it might consult points at the real home.
        let ended = try Spawn.capture(path, arguments, environment: ["HOME": fakeHome, "PATH": "/usr/bin:/bin"])
        if expectSuccess, ended.status != 0 {
            throw Failure(description: "ssh \(arguments.joined(separator: " ")) exited \(ended.status): \(ended.stderr)")
        }
        return (ended.stdout, ended.stderr)
    }
}
