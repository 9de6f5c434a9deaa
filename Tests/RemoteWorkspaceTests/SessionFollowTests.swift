import Foundation
import RemoteWorkspace
import RWSTestSupport
import SessionHistory
import SSHClient
import Synchronization
import Testing

@Suite struct SessionFollowTests {
    static let id = "44444444-0000-0000-0000-000000000004"

    /// Appends `text` to `path` from another process.
    func append(_ text: String, to path: String) throws {
        try Shell.sh("printf '%s' \(try ShellQuoting.quote(text)) >> \(try ShellQuoting.quote(path))")
    }

    func text(of event: SessionFollowEvent?) -> String? {
        guard case .conversation(.added(let entry, _)) = event else { return nil }
        switch entry {
        case .user(let turn): return turn.text
        case .assistant(let turn): return turn.text
        case .compaction: return nil
        }
    }

    @Test func eachAppendedMessageArrivesWithinASecondEvenALineWrittenInTwoHalves() async throws {
        let sandbox = try SessionSandbox()
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("first", uuid: "u1", parent: nil, session: Self.id)])
        try await sandbox.withSessions { sessions in
            let events = EventCollector(try await sessions.followSession("44444444"))
            try await Task.sleep(for: .milliseconds(300))
            var started = ContinuousClock.now
            try append(Records.assistant("answer one", uuid: "a1", parent: "u1", session: Self.id) + "\n", to: path)
            #expect(text(of: try await events.event(after: 0, within: 1)) == "answer one")
            #expect(ContinuousClock.now - started < .seconds(1))

            let line = Records.user("second prompt", uuid: "u2", parent: "a1", session: Self.id) + "\n"
            let half = line.utf8.count / 2
            try append(String(decoding: Array(line.utf8.prefix(half)), as: UTF8.self), to: path)
            #expect(try await events.event(after: 1, within: 0.8) == nil, "half a line is not an event")
            started = ContinuousClock.now
            try append(String(decoding: Array(line.utf8.dropFirst(half)), as: UTF8.self), to: path)
            #expect(text(of: try await events.event(after: 1, within: 1)) == "second prompt")
            #expect(ContinuousClock.now - started < .seconds(1))
            await events.stop()
        }
    }

    @Test func followingSurvivesTruncationAndReplacementOfTheFile() async throws {
        let sandbox = try SessionSandbox()
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.id, lines: [
            Records.user("first", uuid: "u1", parent: nil, session: Self.id), Records.assistant("one", uuid: "a1", parent: "u1", session: Self.id),
        ])
        try await sandbox.withSessions { sessions in
            let events = EventCollector(try await sessions.followSession(Self.id, pollInterval: .milliseconds(100)))
            try await Task.sleep(for: .milliseconds(300))
            try Shell.sh(": > \(try ShellQuoting.quote(path))")
            guard case .restarted(let reason) = try await events.event(after: 0, within: 2) else { Issue.record("no restart on truncation"); return }
            #expect(reason == "truncated")
            try append(Records.user("after truncation", uuid: "t1", parent: nil, session: Self.id) + "\n", to: path)
            #expect(text(of: try await events.event(after: 1, within: 2)) == "after truncation")

            let replacement = path + ".new"
            try Data((Records.user("replaced", uuid: "r1", parent: nil, session: Self.id) + "\n").utf8).write(to: URL(fileURLWithPath: replacement))
            try Shell.sh("mv \(try ShellQuoting.quote(replacement)) \(try ShellQuoting.quote(path))")
            guard case .restarted(let why) = try await events.event(after: 2, within: 2) else { Issue.record("no restart on replacement"); return }
            #expect(why == "replaced")
            #expect(text(of: try await events.event(after: 3, within: 2)) == "replaced")
            await events.stop()
        }
    }

    @Test func stoppingTheIterationStopsTheRemoteLoop() async throws {
        let sandbox = try SessionSandbox()
        defer { sandbox.remove() }
        try sandbox.writeSession(Self.id, lines: [Records.user("first", uuid: "u1", parent: nil, session: Self.id)])
        try await sandbox.withSessions { sessions in
            let task = Task { for try await _ in try await sessions.followSession(Self.id) {} }
            try await Task.sleep(for: .milliseconds(500))
            // "[s]essions-…" matches the remote loop's command line but not the shell running pgrep.
            let name = String(sandbox.root.split(separator: "/").last!)
            let marker = "[" + name.prefix(1) + "]" + name.dropFirst()
            #expect(try Shell.sh("pgrep -f \(try ShellQuoting.quote(marker)) || true").isEmpty == false)
            task.cancel()
            _ = try? await task.value
            try await Task.sleep(for: .milliseconds(800))
            #expect(try Shell.sh("pgrep -f \(try ShellQuoting.quote(marker)) || true").isEmpty)
        }
    }
}

/// Reads a follow stream in the background and keeps what arrived, for tests to wait on.
private final class EventCollector: Sendable {
    private final class Store: Sendable {
        let events = Mutex<[SessionFollowEvent]>([])
    }

    private let store = Store()
    private let task: Task<Void, Error>

    init(_ stream: AsyncThrowingStream<SessionFollowEvent, Error>) {
        let store = store
        task = Task { for try await event in stream { store.events.withLock { $0.append(event) } } }
    }

    /// The event after the `count` already taken, or nil when none comes within `seconds`.
    func event(after count: Int, within seconds: Double) async throws -> SessionFollowEvent? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let event = store.events.withLock({ $0.count > count ? $0[count] : nil }) { return event }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
