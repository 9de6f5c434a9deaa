import Foundation
import RWSTestSupport
import SSHClient
import Testing

@testable import RemoteWorkspace

/// `TransferCompression.automatic`: the first big load measures the link and moves raw bytes
/// where gzip would be the bottleneck, compressed ones on a slow link.
@Suite struct SessionLoadCompressionTests {
    /// A session of at least `minimum` bytes: the corpus's lines repeated.
    static func bigSession(in sandbox: TestBox, minimum: Int = 6_000_000) throws -> (id: String, size: Int) {
        let id = "99999999-0000-4000-8000-000000000009"
        var lines: [String] = []
        var size = 0
        var number = 0
        while size < minimum {
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
    /// one side (half as far again, either way, by a raw read of the whole file through the
    /// same commands, timed apart), and the choice follows the probe: raw bytes at 40 MB/s and
    /// up. Loopback is not assumed fast: dropbear moves 30–90 MB/s here, less on a busy or
    /// slower box, where gzip is right. (The rate itself is rough at OpenSSH's 150–250 MB/s,
    /// where 4 MiB take 20 ms; it only has to be right near the line.) A plain `cat` of the
    /// file, timed too, is in the message: the box's own measure of the link. 10 MB leave room
    /// for the second confirming pair near the line.
    @Test(arguments: ServerKind.allCases)
    func theFirstBigLoadMeasuresTheLinkAndMovesRawBytesWhereGzipWouldBeTheBottleneck(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox, minimum: 10_000_000)
        try await sandbox.withSessions { sessions in
            let loaded = try await sessions.loadSession(id)
            let path = loaded.listing.file.path
            let read = try await Self.timedRate(of: size, on: sessions.host) { host, bytes in
                let got = try await RemoteByteReader(host: host).read(path: path, length: bytes).bytes.count
                #expect(got == bytes)
            }
            let cat = try await Self.timedRate(of: size, on: sessions.host) { host, bytes in
                let commandLine = bytes == 0 ? "true" : "cat " + (try ShellQuoting.quotePath(path))
                let result = try await host.runCommand(commandLine, input: [], timeout: .seconds(60), idempotent: true)
                #expect(result.status == .exited(0))
            }
            let measured = try #require(sessions.measuredLinkRate)
            let rates = "probe \(measured / 1e6) MB/s, raw read \(read / 1e6) MB/s, cat \(cat / 1e6) MB/s"
            let line = LinkRate.line
            if read >= line * 1.5 { #expect(measured >= line, "\(rates)") }
            if read <= line / 1.5 { #expect(measured < line, "\(rates)") }
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

    /// The rate at which `transfer(host, size)` moves `size` bytes, less what `transfer(host, 0)`
    /// takes (the round trip and the commands' start): the medians of three of each.
    static func timedRate(
        of size: Int, on host: any ScriptHost, _ transfer: (any ScriptHost, Int) async throws -> Void
    ) async throws -> Double {
        let clock = ContinuousClock()
        func median(_ bytes: Int) async throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<3 {
                let start = clock.now
                try await transfer(host, bytes)
                times.append(start.duration(to: clock.now))
            }
            return times.sorted()[1]
        }
        let time = try await median(size) - (try await median(0))
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        return Double(size) / max(seconds, 1e-6)
    }

    /// Near the line, where one stall of the box can halve a rate, a second 4 MiB pair is timed
    /// from the file's next bytes before the choice: through a link of 28 MB/s the load moves
    /// three timed pairs raw, then compresses.
    @Test func nearTheLineASecondConfirmingPairIsTimed() async throws {
        let sandbox = try TestBox()
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox, minimum: 10_000_000)
        try await Self.withSessions(in: sandbox, through: .init(bytesPerSecond: 28_000_000)) { sessions in
            let loaded = try await sessions.loadSession(id)
            let measured = try #require(sessions.measuredLinkRate)
            let threePairs = LinkRate.probes.second + 2 * (LinkRate.probes.first + LinkRate.confirmingStretch)
            #expect(loaded.byteCount == size)
            #expect(measured < LinkRate.line, "\(measured / 1e6) MB/s")
            // Through this link a rate near the line is the first confirming pair's or the faster of two.
            if LinkRate.isNearTheLine(measured) {
                #expect(loaded.bytesTransferred >= threePairs, "\(loaded.bytesTransferred) of \(size) at \(measured / 1e6) MB/s")
            }
            #expect(loaded.bytesTransferred < threePairs + 1_000_000, "\(loaded.bytesTransferred) of \(size)")
        }
    }

    /// Runs `body` with the sandbox's sessions over a connection through a proxy with `link`.
    static func withSessions(
        in sandbox: TestBox, through link: FaultProxy.Link, _ body: (RemoteSessions) async throws -> Void
    ) async throws {
        let proxy = try FaultProxy(targetPort: sandbox.server.port, link: link)
        defer { proxy.stop() }
        let connection = try await SSHConnection.connect(try sandbox.server.configuration(through: proxy))
        do {
            try await body(
                RemoteSessions(
                    connection: connection, locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: nil))
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    @Test func onASlowLinkTheLoadIsCompressed() async throws {
        let sandbox = try TestBox()
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox)
        try await Self.withSessions(in: sandbox, through: .init(bytesPerSecond: 2_000_000, latency: .milliseconds(10))) { sessions in
            let loaded = try await sessions.loadSession(id)
            #expect(loaded.byteCount == size)
            // The probes' 288 KiB move raw, the rest compressed.
            #expect(loaded.bytesTransferred < 700_000, "\(loaded.bytesTransferred) of \(size)")
        }
    }
}
