import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization
import Testing

/// A link that drops every 10 s (resets and black holes in turn) under everything an app keeps
/// open at once: a follow, a persistent shell running `top`, and a loop of short commands; for
/// 40 s in the suite, two minutes under `RWS_SOAK=full` (scripts/soak-tests). Every appended
/// line is shown exactly once, the shell's screen is back after each drop, every command either
/// succeeds or fails with connectionLost, and nothing hangs.
@Suite(.timeLimit(.minutes(5))) struct LinkDropTests {
    static let id = "66666666-0000-0000-0000-000000000006"
    /// Four drops (two cuts, two black holes) in the suite, twelve in the full soak.
    static let duration = SoakLength.duration(full: .seconds(120), sample: .seconds(40))

    @Test func followShellAndCommandsComeThroughALinkDroppingEveryTenSeconds() async throws {
        let sandbox = try TestBox(.openssh)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("start", uuid: "u0", parent: nil, session: Self.id)])
        let proxy = try FaultProxy(targetPort: sandbox.server.port)
        defer { proxy.stop() }
        var configuration = try sandbox.server.configuration(through: proxy, deadPeerTimeout: .seconds(3))
        configuration.keepaliveInterval = .seconds(1)
        configuration.connectTimeout = .seconds(2)
        configuration.reconnect = ReconnectPolicy(
            initialDelay: .milliseconds(200), maximumDelay: .seconds(1), waitForConnection: .seconds(30))
        let connection = try await SSHConnection.connect(configuration)
        let shellName = "drop\(UUID().uuidString.prefix(6).lowercased())"
        let shellEnded = Atomic<Bool>(false)
        // Only when the test threw: a connection still running as the test process exits crashes it.
        defer { if !shellEnded.load(ordering: .relaxed) { Task { try? await Self.endShell(shellName) } } }

        // The follow and a writer appending a message every 300 ms.
        let sessions = RemoteSessions(
            connection: connection, locations: WorkspaceLocations(claudeDirectories: [sandbox.claudeDirectory]), cache: nil)
        let follow = try await sessions.followSession("66666666", pollInterval: .milliseconds(100))
        let state = SharedState()
        let reader = Task {
            for try await event in follow {
                if case .conversation(.added(.user(let turn), _)) = event { state.seen.withLock { $0.append(turn.text) } }
            }
        }
        let writer = Task.detached {
            var parent = "u0"
            while !state.stop.load(ordering: .relaxed) {
                let index = state.written.withLock { $0.count }
                let line = Records.user("message \(index)", uuid: "m\(index)", parent: parent, session: Self.id) + "\n"
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(line.utf8))
                try handle.close()
                state.written.withLock { $0.append("message \(index)") }
                parent = "m\(index)"
                try await Task.sleep(for: .milliseconds(300))
            }
        }

        // Short commands, each bounded by a watchdog.
        let commands = Task {
            var index = 0
            while !state.stop.load(ordering: .relaxed) {
                index += 1
                let started = ContinuousClock.now
                do {
                    let result = try await connection.run("echo \(index)")
                    if result.stdoutText == "\(index)\n" {
                        state.outcomes.withLock { $0.ok += 1 }
                    } else {
                        state.outcomes.withLock { $0.other.append("output \(result.stdoutText)") }
                    }
                } catch SSHError.connectionLost {
                    state.outcomes.withLock { $0.lost += 1 }
                } catch {
                    state.outcomes.withLock { $0.other.append("\(error)") }
                }
                if ContinuousClock.now - started > .seconds(40) {
                    state.outcomes.withLock { $0.other.append("command \(index) took over 40 s") }
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }

        // The link drops every 10 s; after each drop the persistent shell's `top` screen comes back.
        var screensBack = 0
        var drops = 0
        let end = ContinuousClock.now + Self.duration
        var shell = try await connection.openPersistentShell(named: shellName, ShellConfiguration(columns: 100, rows: 30))
        try await shell.send("top -d 1\n")
        #expect(try await Self.screen(of: shell, shows: "load average", within: .seconds(15)))
        while ContinuousClock.now < end {
            try await Task.sleep(for: .seconds(10))
            drops += 1
            if drops % 2 == 0 {
                proxy.cutAll()
            } else {
                proxy.setBlackHole(true)  // detected by keepalive within deadPeerTimeout
                try await Task.sleep(for: .seconds(4))
                proxy.setBlackHole(false)
                proxy.cutAll()
            }
            shell = try await connection.openPersistentShell(named: shellName, ShellConfiguration(columns: 100, rows: 30))
            if try await Self.screen(of: shell, shows: "load average", within: .seconds(20)) { screensBack += 1 }
        }
        state.stop.store(true, ordering: .relaxed)
        try await writer.value
        await commands.value
        let expected = state.written.withLock { $0 }
        try await Eventually.holds(within: .seconds(20)) { state.seen.withLock { $0 } == expected }
        try await follow.stop()
        _ = try? await reader.value
        try? await shell.close()
        await connection.close()
        try await Self.endShell(shellName)
        shellEnded.store(true, ordering: .relaxed)

        #expect(state.seen.withLock { $0 } == expected, "every appended message exactly once, in order")
        #expect(screensBack == drops, "top's screen came back after \(screensBack) of \(drops) drops")
        let result = state.outcomes.withLock { $0 }
        #expect(result.other.isEmpty, "\(result.other)")
        #expect(result.ok > 100, "\(result)")
        #expect(proxy.acceptedConnections >= drops + 1)
    }

    private static func endShell(_ name: String) async throws {
        try await SharedTestServer.get().withConnection { try await $0.killPersistentShell(named: name) }
    }

    /// What the test's tasks share.
    final class SharedState: Sendable {
        let seen = Mutex<[String]>([])
        let written = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let outcomes = Mutex<(ok: Int, lost: Int, other: [String])>((0, 0, []))
    }

    /// Whether the shell's output shows `text` within `limit`.
    static func screen(of shell: InteractiveShell, shows text: String, within limit: Duration) async throws -> Bool {
        let found = Atomic<Bool>(false)
        let watcher = Task {
            var seen = ""
            for try await chunk in shell.output {
                seen += String(decoding: chunk, as: UTF8.self)
                if seen.contains(text) {
                    found.store(true, ordering: .relaxed)
                    return
                }
                if seen.count > 200_000 { seen.removeFirst(100_000) }
            }
        }
        try await Eventually.holds(within: limit) { found.load(ordering: .relaxed) }
        watcher.cancel()
        return found.load(ordering: .relaxed)
    }
}
