import Foundation
import RWSTestSupport
import SSHClient

/// `FindBenchmark transfer` (scripts/bench-find transfer): `download` and `upload` (`rws get` /
/// `rws put`) of a 500 MB file over loopback against OpenSSH's `sftp` and `scp` on the same
/// sshd, 3 runs each. Prints Markdown.
enum TransferBenchmark {
    static let size = 500_000_000
    static let runs = 3

    static func run(server: TestSSHServer) async throws {
        let remote = server.remoteHome + "/big.bin"
        let local = server.directory.appendingPathComponent("local-big.bin").path
        print("writing a 500 MB file…")
        try Shell.run("/bin/sh", ["-c", #"head -c "$1" /dev/urandom > "$2" && cp "$2" "$3""#, "sh", String(size), remote, local])
        let target = server.directory.appendingPathComponent("got.bin").path
        var rows: [(String, [Double])] = []
        try await server.withConnection { connection in
            rows.append(("`download` (`rws get`)", try await timed(runs) { try await connection.download(remote, to: target) }))
            rows.append(("`upload` (`rws put`)", try await timed(runs) { try await connection.upload(local, to: "~/put.bin") }))
        }
        let ssh = [
            "-i", server.clientKeyPath, "-o", "UserKnownHostsFile=\(server.knownHostsPath)", "-o", "StrictHostKeyChecking=yes",
            "-F", "/dev/null",
        ]
        let batch = server.directory.appendingPathComponent("batch").path
        let login = "\(server.user)@127.0.0.1"
        let port = String(server.port)
        func sftp(_ command: String) async throws -> [Double] {
            try command.write(toFile: batch, atomically: true, encoding: .utf8)
            return try await timed(runs) { try Shell.run("/usr/bin/sftp", ["-q", "-b", batch, "-P", port] + ssh + [login]) }
        }
        func scp(_ from: String, _ to: String) async throws -> [Double] {
            try await timed(runs) { try Shell.run("/usr/bin/scp", ["-q", "-P", port] + ssh + [from, to]) }
        }
        rows.append(("OpenSSH `sftp` get", try await sftp("get \(remote) \(target)\n")))
        rows.append(("OpenSSH `sftp` put", try await sftp("put \(local) \(server.remoteHome)/sftp-put.bin\n")))
        rows.append(("OpenSSH `scp` get", try await scp("\(login):\(remote)", target)))
        rows.append(("OpenSSH `scp` put", try await scp(local, "\(login):\(server.remoteHome)/scp-put.bin")))
        print("| step (500 MB, loopback) | runs | p50 s | max s | MB/s at p50 |\n|---|---|---|---|---|")
        for (step, samples) in rows {
            let sorted = samples.sorted()
            let median = sorted[sorted.count / 2]
            let rate = Double(size) / median / 1e6
            print(String(format: "| %@ | %d | %.2f | %.2f | %.0f |", step, samples.count, median, sorted.last!, rate))
        }
    }

}
