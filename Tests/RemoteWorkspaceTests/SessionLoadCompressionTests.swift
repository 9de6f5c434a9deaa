import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// `TransferCompression.automatic`: the first big load measures the link and moves raw bytes
/// where gzip would be the bottleneck (loopback), compressed ones on a slow link.
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

    @Test(arguments: ServerKind.allCases)
    func onLoopbackTheMeasuredLinkIsTooFastForGzipAndRawBytesMove(kind: ServerKind) async throws {
        let sandbox = try SessionSandbox(kind)
        defer { sandbox.remove() }
        let (id, size) = try Self.bigSession(in: sandbox)
        try await sandbox.withSessions { sessions in
            let loaded = try await sessions.loadSession(id)
            #expect(loaded.byteCount == size)
            #expect(loaded.bytesTransferred >= size, "raw bytes on loopback: \(loaded.bytesTransferred) of \(size)")
            #expect(loaded.conversation.messageCount == loaded.lines.records.count)
            let gzipped = try await sessions.load(loaded.listing, options: SessionLoadOptions(compression: .gzip(level: 1)))
            #expect(gzipped.bytesTransferred < size / 4)
            #expect(gzipped.lines.records.count == loaded.lines.records.count)
        }
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
