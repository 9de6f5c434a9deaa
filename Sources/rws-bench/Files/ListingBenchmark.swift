import Foundation
import RWSTestSupport
import SSHClient

/// `rws-bench ls` (scripts/bench ls): `listDirectory` (`rws ls`) of a 50,000-entry
/// directory and of a 100-entry one through a fault proxy adding 150 ms each way (300 ms round
/// trips): the automatic transport (SFTP, then the exec listing once SFTP runs past its
/// budget; the exec listing at once where the handshake showed a slow link) against the exec
/// listing forced, the first listing of a new connection apart. Prints Markdown.
enum ListingBenchmark {
    static let runs = 5

    static func run(server: TestSSHServer) async throws {
        let big = server.remoteHome + "/fifty-thousand"
        let small = server.remoteHome + "/hundred"
        print("writing 50,000 and 100 files…")
        try runShellScript(
            #"mkdir -p "$1" "$2" && cd "$1" && seq -f 'entry-%05g.txt' 1 50000 | xargs touch && cd "$2" && seq 1 100 | xargs touch"#, big,
            small)
        let proxy = try FaultProxy(targetPort: server.port, link: .init(latency: .milliseconds(150)))
        defer { proxy.stop() }
        var rows: [(String, [Double])] = []
        var reference: [RemoteFileEntry] = []
        try await server.withConnection { reference = try await $0.listDirectory(big) }
        for transport in [RemoteFileTransport.automatic, .shell] {
            var configuration = try server.configuration(through: proxy)
            configuration.fileTransport = transport
            // What a one-shot `rws ls` waits for once connected: the first listing of a connection.
            var firsts: [Double] = []
            for _ in 0..<runs {
                let fresh = try await SSHConnection.connect(configuration)
                do {
                    firsts += try await timed(1) { _ = try await fresh.listDirectory(big) }
                } catch {
                    await fresh.close()
                    throw error
                }
                await fresh.close()
            }
            rows.append(("50,000 entries, \(transport), first listing of a new connection", firsts))
            let connection = try await SSHConnection.connect(configuration)
            do {
                var same = true
                rows.append(
                    (
                        "50,000 entries, \(transport)",
                        try await timed(runs) { same = try await connection.listDirectory(big) == reference && same }
                    ))
                if !same { rows[rows.count - 1].0 += " (ENTRIES DIFFER)" }
                rows.append(("100 entries, \(transport)", try await timed(runs) { _ = try await connection.listDirectory(small) }))
                let trips = try await timed(runs) { _ = try await connection.run("true") }
                rows.append(("reference: `true` round trip", trips))
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
        }
        print(MarkdownTable(timings: rows, step: "step (300 ms round trips)"))
    }
}
