import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization
import Testing

/// A follow on a reconnecting connection survives dropped links: every appended message is shown
/// exactly once, including those written while the link was down.
@Suite(.timeLimit(.minutes(2))) struct FollowReconnectTests {
    static let id = "55555555-0000-0000-0000-000000000005"

    @Test(arguments: ServerKind.allCases)
    func everyMessageAppendedAcrossDroppedLinksArrivesExactlyOnce(kind: ServerKind) async throws {
        let (sandbox, path, proxy) = try Self.proxiedSession(kind)
        defer {
            proxy.stop()
            sandbox.remove()
        }
        var configuration = try sandbox.server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(500), jitter: 0)
        let connection = try await SSHConnection.connect(configuration)
        let follow = try await Self.sessions(of: sandbox, over: connection).followSession("55555555", pollInterval: .milliseconds(50))
        let seen = Mutex<[String]>([])
        let reader = Task {
            for try await event in follow {
                if case .conversation(.added(.user(let turn), _)) = event { seen.withLock { $0.append(turn.text) } }
            }
        }
        var expected: [String] = []
        var parent = "u0"
        func append(_ text: String) throws {
            let uuid = "m\(expected.count)"
            let line = Records.user(text, uuid: uuid, parent: parent, session: Self.id) + "\n"
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
            try handle.close()
            parent = uuid
            expected.append(text)
        }
        for round in 0..<4 {
            try append("before drop \(round)")
            #expect(try await Eventually.holds(within: .seconds(20)) { seen.withLock { $0 } == expected })
            proxy.cutAll()
            try append("while down \(round)")
            try append("while down \(round) again")
            #expect(try await Eventually.holds(within: .seconds(20)) { seen.withLock { $0 } == expected })
        }
        try await follow.stop()
        _ = try? await reader.value
        await connection.close()
        #expect(seen.withLock { $0 } == expected)
        #expect(proxy.acceptedConnections == 5)
    }

    /// Nothing signals a command without a terminal when its connection drops, and a loop over a
    /// session that no longer changes never writes: the loop itself must notice, or it runs forever.
    @Test(arguments: ServerKind.allCases)
    func aLoopWhoseLinkWasCutEndsOnTheBoxThoughTheSessionNeverChangesAgain(kind: ServerKind) async throws {
        let (sandbox, path, proxy) = try Self.proxiedSession(kind)
        defer {
            proxy.stop()
            sandbox.remove()
        }
        let connection = try await SSHConnection.connect(try sandbox.server.configuration(through: proxy))
        let follow = try await Self.sessions(of: sandbox, over: connection).followSession("55555555", pollInterval: .milliseconds(50))
        let watch = RemoteProcessWatch(markers: path, "while :; do")
        #expect(try await watch.waitUntilRunning(within: 10))
        let cut = ContinuousClock.now
        proxy.cutAll()
        while !watch.running().isEmpty, ContinuousClock.now - cut < .seconds(15) { try await Task.sleep(for: .milliseconds(100)) }
        let left = watch.running()
        #expect(left.isEmpty, "the loop outlived its connection by 15 s: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
        try? await follow.stop()
        await connection.close()
    }

    /// A session file on the test box of `kind`, and a fault proxy in front of the box.
    private static func proxiedSession(_ kind: ServerKind) throws -> (sandbox: TestBox, path: String, proxy: FaultProxy) {
        let sandbox = try TestBox(kind)
        let path = try sandbox.writeSession(id, lines: [Records.user("start", uuid: "u0", parent: nil, session: id)])
        return (sandbox, path, try FaultProxy(targetPort: sandbox.server.port))
    }

    private static func sessions(of sandbox: TestBox, over connection: SSHConnection) -> RemoteSessions {
        RemoteSessions(connection: connection, locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: nil)
    }
}
