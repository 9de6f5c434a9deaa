import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// `TransferCompression.automatic`: the first big load measures the link and moves raw bytes
/// where gzip would be the bottleneck, compressed ones on a slow link.
@Suite struct SessionLoadCompressionTests {
    /// A 6 MB session: the corpus's lines repeated.
    static func bigSession(in sandbox: SessionSandbox) throws -> (id: String, size: Int) {
        let id = "99999999-0000-4000-8000-000000000009"
        var lines: [String] = []
        var size = 0
        var number = 0
        while size < 6_000_000 {
            let line = Records.user(
                "line \(number): " + String(repeating: "the session text repeats itself ", count: 40), uuid: "u\(number)",
                parent: number == 0 ? nil : "u\(number - 1)", session: id)
            lines.append(line)
            size += line.utf8.count + 1
            number += 1
        }
        try sandbox.writeSession(id, lines: lines)
        return (id, size)
    }

    /// The probe's rate puts the link on the right side of 40 MB/s wherever it is clearly on
    /// one side (half as far again, either way, by a plain `cat` of the whole file timed apart),
    /// and the choice follows the probe: raw bytes at 40 MB/s and up. Loopback is not assumed
    /// fast: dropbear moves 30–90 MB/s here, less on a busy or slower box, where gzip is right.
    /// (The rate itself is rough at OpenSSH's 150–250 MB/s, where 4 MiB take 20 ms; it only has
    /// to be right near the line.)
    @Test(arguments: ServerKind.allCases)
    func theFirstBigLoadMeasuresTheLinkAndMovesRawBytesWhereGzipWouldBeTheBottleneck(kind: ServerKind) async throws {
        let sandbox = try SessionSandbox(kind)
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox)
        try await sandbox.withSessions { sessions in
            let loaded = try await sessions.loadSession(id)
            let link = try await Self.timedLinkRate(reading: loaded.listing.file.path, size: size, host: sessions.host)
            let measured = try #require(sessions.measuredLinkRate)
            let rates = "probe \(measured / 1e6) MB/s, cat \(link / 1e6) MB/s"
            let line = 40_000_000.0
            if link >= line * 1.5 { #expect(measured >= line, "\(rates)") }
            if link <= line / 1.5 { #expect(measured < line, "\(rates)") }
            #expect(loaded.byteCount == size)
            if measured >= line {
                #expect(loaded.bytesTransferred >= size, "raw bytes: \(loaded.bytesTransferred) of \(size); \(rates)")
            } else {
                #expect(loaded.bytesTransferred < size * 9 / 10, "gzip: \(loaded.bytesTransferred) of \(size); \(rates)")
            }
            #expect(loaded.conversation.messageCount == loaded.lines.records.count)
            let gzipped = try await sessions.load(loaded.listing, options: SessionLoadOptions(compression: .gzip(level: 1)))
            #expect(gzipped.bytesTransferred < size / 4)
            #expect(gzipped.lines.records.count == loaded.lines.records.count)
        }
    }

    /// The link's rate as `cat` of the whole file sees it, less a command's round trip: the
    /// medians of three of each.
    static func timedLinkRate(reading path: String, size: Int, host: any ScriptHost) async throws -> Double {
        let clock = ContinuousClock()
        func median(_ commandLine: String) async throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<3 {
                let start = clock.now
                let result = try await host.runCommand(commandLine, input: [], timeout: .seconds(60), idempotent: true)
                times.append(start.duration(to: clock.now))
                #expect(result.status == .exited(0))
            }
            return times.sorted()[1]
        }
        let transfer = try await median("cat " + ShellQuoting.quotePath(path)) - (try await median("true"))
        let seconds = Double(transfer.components.seconds) + Double(transfer.components.attoseconds) / 1e18
        return Double(size) / max(seconds, 1e-6)
    }

    @Test func onASlowLinkTheLoadIsCompressed() async throws {
        let sandbox = try SessionSandbox()
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox)
        let proxy = try FaultProxy(targetPort: sandbox.server.port, link: .init(bytesPerSecond: 2_000_000, latency: .milliseconds(10)))
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try sandbox.server.configuration(through: proxy))
        do {
            let sessions = RemoteSessions(
                connection: connection, locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: nil)
            let loaded = try await sessions.loadSession(id)
            #expect(loaded.byteCount == size)
            // The probes' 288 KiB move raw, the rest compressed.
            #expect(loaded.bytesTransferred < 700_000, "\(loaded.bytesTransferred) of \(size)")
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }
}
