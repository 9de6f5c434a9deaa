import Foundation
import RWSTestSupport
import SSHClient

/// `rws-bench transfer [files|trees]` (scripts/bench transfer): `download` and `upload`
/// (`rws get` / `rws put`) of a 500 MB file, and `downloadDirectory` / `uploadDirectory` (`-r`)
/// of a 10,000-file tree, over loopback, against the plain C libssh2 client
/// (`scripts/lib/libssh2_transfer.c`, built here) and OpenSSH's `sftp` and `scp` on the same
/// sshd, the four alternated in each run. Prints Markdown.
struct TransferBenchmark {
    static let size = 500_000_000
    /// Runs of each step: 3, or BENCH_RUNS.
    static let runs = ProcessInfo.processInfo.environment["BENCH_RUNS"].flatMap(Int.init) ?? 3
    static let treeFolders = 100
    static let filesPerFolder = 100

    private struct Row {
        var step: String
        var bytes: Int
        var samples: [Double] = []
        var reference: String?
    }

    let server: TestSSHServer
    let work: String
    let client: String
    private var home: String { server.remoteHome }

    static func run(server: TestSSHServer, parts: String?) async throws {
        let work = server.directory.appendingPathComponent("transfer").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let benchmark = TransferBenchmark(server: server, work: work, client: try buildClient(into: work))
        var rows: [Row] = []
        if parts != "trees" { rows += try await benchmark.files() }
        if parts != "files" { rows += try await benchmark.trees() }
        var table = MarkdownTable(["step (loopback)", "runs", "p50 s", "max s", "MB/s at p50", "vs C libssh2"])
        for row in rows {
            let p50 = median(row.samples)
            let ratio = row.reference.flatMap { name in rows.first { $0.step == name } }.map {
                String(format: "%.2f×", median($0.samples) / p50)
            }
            table.add([
                row.step, String(row.samples.count),
                String(format: "%.2f | %.2f | %.0f", p50, row.samples.max()!, Double(row.bytes) / p50 / 1e6),
                ratio ?? "–",
            ])
        }
        print(table)
    }

    private func files() async throws -> [Row] {
        let remote = home + "/big.bin"
        let local = work + "/local-big.bin"
        let got = work + "/got.bin"
        print("writing a 500 MB file…")
        try runShellScript(#"head -c "$1" /dev/urandom > "$2" && cp "$2" "$3""#, String(Self.size), remote, local)
        let size = Self.size
        return try await measure([
            Row(step: "`download` (`rws get`)", bytes: size, reference: "C libssh2 get"), Row(step: "C libssh2 get", bytes: size),
            Row(step: "OpenSSH `sftp` get", bytes: size), Row(step: "OpenSSH `scp` get", bytes: size),
            Row(step: "`upload` (`rws put`)", bytes: size, reference: "C libssh2 put"), Row(step: "C libssh2 put", bytes: size),
            Row(step: "OpenSSH `sftp` put", bytes: size), Row(step: "OpenSSH `scp` put", bytes: size),
        ]) { connection in
            [
                try await timed(1) { try await connection.download(remote, to: got) }[0],
                try c("get", remote, got),
                try sftp("get \(remote) \(got)\n"),
                try scp(["\(server.login):\(remote)", got]),
                try await timed(1) { try await connection.upload(local, to: home + "/put.bin") }[0],
                try c("put", local, home + "/put.bin"),
                try sftp("put \(local) \(home)/put.bin\n"),
                try scp([local, "\(server.login):\(home)/put.bin"]),
            ]
        }
    }

    private func trees() async throws -> [Row] {
        print("writing a 10,000-file tree…")
        let tree = work + "/tree"
        let bytes = try Self.writeTree(tree)
        try Shell.run("/bin/cp", ["-a", tree, home + "/tree"])
        let (got, put) = (work + "/got-tree", home + "/put-tree")
        func fresh(_ path: String) throws { try Shell.run("/bin/rm", ["-rf", path]) }
        return try await measure([
            Row(step: "`downloadDirectory` (`rws get -r`), 10,000 files", bytes: bytes, reference: "C libssh2 get, tree"),
            Row(step: "C libssh2 get, tree", bytes: bytes),
            Row(step: "OpenSSH `sftp` get -r, tree", bytes: bytes), Row(step: "OpenSSH `scp` -r get, tree", bytes: bytes),
            Row(step: "`uploadDirectory` (`rws put -r`), 10,000 files", bytes: bytes, reference: "C libssh2 put, tree"),
            Row(step: "C libssh2 put, tree", bytes: bytes),
            Row(step: "OpenSSH `sftp` put -r, tree", bytes: bytes), Row(step: "OpenSSH `scp` -r put, tree", bytes: bytes),
        ]) { connection in
            var samples: [Double] = []
            try fresh(got)
            samples.append(try await timed(1) { try await connection.downloadDirectory(home + "/tree", to: got) }[0])
            try fresh(got)
            samples.append(try c("get-tree", home + "/tree", got))
            try fresh(got)
            samples.append(try sftp("get -pr \(home)/tree \(got)\n"))
            try fresh(got)
            samples.append(try scp(["-r", "\(server.login):\(home)/tree", got]))
            try fresh(put)
            samples.append(try await timed(1) { try await connection.uploadDirectory(tree, to: put) }[0])
            try fresh(put)
            samples.append(try c("put-tree", tree, put))
            try fresh(put)
            samples.append(try sftp("put -pr \(tree) \(put)\n"))
            try fresh(put)
            samples.append(try scp(["-r", tree, "\(server.login):\(put)"]))
            return samples
        }
    }

    /// `runs` rounds of `round`, which gives one sample per row, in order.
    private func measure(_ rows: [Row], _ round: (SSHConnection) async throws -> [Double]) async throws -> [Row] {
        var rows = rows
        try await server.withConnection { connection in
            for _ in 0..<Self.runs {
                for (index, sample) in try await round(connection).enumerated() { rows[index].samples.append(sample) }
            }
        }
        return rows
    }

    /// The C client's own timing (after its connection is set up, as for rws).
    private func c(_ mode: String, _ from: String, _ to: String) throws -> Double {
        let environment = ProcessInfo.processInfo.environment.merging([
            "BENCH_HOST": "127.0.0.1", "BENCH_PORT": String(server.port), "BENCH_USER": server.user,
            "BENCH_KEY": server.clientKeyPath, "BENCH_KEY_PUB": server.clientKeyPath + ".pub",
            "BENCH_KNOWN_HOSTS": server.knownHostsPath,
        ]) { $1 }
        let output = try Shell.run(client, [mode, from, to], environment: environment)
        guard let seconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchFailure("the C client printed \(output)")
        }
        return seconds
    }

    private func sftp(_ command: String) throws -> Double {
        let batch = work + "/batch"
        try command.write(toFile: batch, atomically: true, encoding: .utf8)
        return try clocked {
            try Shell.run("/usr/bin/sftp", ["-q", "-b", batch, "-P", String(server.port)] + server.openSSHOptions + [server.login])
        }
    }

    private func scp(_ arguments: [String]) throws -> Double {
        try clocked { try Shell.run("/usr/bin/scp", ["-q", "-p", "-P", String(server.port)] + server.openSSHOptions + arguments) }
    }

    /// 100 folders of 100 files of 0–8 KiB random bytes (slices of one random buffer); returns the bytes.
    private static func writeTree(_ root: String) throws -> Int {
        guard let random = FileHandle(forReadingAtPath: "/dev/urandom") else { throw BenchFailure("cannot read /dev/urandom") }
        let source = [UInt8](random.readData(ofLength: 1 << 20))
        var total = 0
        for folder in 0..<treeFolders {
            let path = root + "/pkg\(folder)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for file in 0..<filesPerFolder {
                let count = Int.random(in: 0...8192)
                let start = Int.random(in: 0..<(source.count - count))
                try Data(source[start..<(start + count)]).write(to: URL(fileURLWithPath: path + "/file\(file).bin"))
                total += count
            }
        }
        return total
    }

    private static func buildClient(into folder: String) throws -> String {
        let binary = folder + "/libssh2_transfer"
        let flags = try Shell.run("/usr/bin/pkg-config", ["--cflags", "--libs", "libssh2"]).split(separator: " ").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.filter { !$0.isEmpty }
        try Shell.run("/usr/bin/cc", ["-O2", "-Wall", "-Werror", "-o", binary, "scripts/lib/libssh2_transfer.c"] + flags)
        return binary
    }
}
