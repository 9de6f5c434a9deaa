import Foundation
import SSHClient

/// The harness's environment contract: server, key, and sizes.
struct BenchEnvironment: Sendable {
    let values: [String: String]

    init(_ values: [String: String]) { self.values = values }

    func string(_ name: String, _ fallback: String) -> String {
        values[name].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }

    func int(_ name: String, _ fallback: Int) -> Int {
        Int(string(name, String(fallback))) ?? fallback
    }

    /// libssh2 1.10's own defaults are the `common` profile; anything else cannot be honoured.
    func checkAlgorithms() throws {
        let supported = [
            "BENCH_KEX": ["curve25519-sha256@libssh.org", "curve25519-sha256"], "BENCH_HOSTKEY": ["ssh-ed25519"],
            "BENCH_CIPHER": ["aes128-ctr"], "BENCH_MAC": ["hmac-sha2-256"],
        ]
        for (name, allowed) in supported {
            if let wanted = values[name], !wanted.isEmpty, !allowed.contains(wanted) {
                FileHandle.standardError.write(Data("rws-bench: \(name)=\(wanted) cannot be pinned\n".utf8))
                exit(3)
            }
        }
    }

    var configuration: SSHConnectionConfiguration {
        SSHConnectionConfiguration(
            host: string("BENCH_HOST", "127.0.0.1"), port: int("BENCH_PORT", 2299),
            user: string("BENCH_USER", ProcessInfo.processInfo.environment["USER"] ?? "root"),
            authentication: [.privateKey(path: string("BENCH_KEY", ""))],
            knownHostsFile: string("BENCH_KNOWN_HOSTS", ""), maxChannels: int("BENCH_MAX_CHANNELS", 100))
    }

    func connect() async throws -> SSHConnection {
        try checkAlgorithms()
        return try await SSHConnection.connect(configuration)
    }
}
