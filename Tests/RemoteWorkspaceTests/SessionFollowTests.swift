import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization
import Testing

@Suite struct SessionFollowTests {
    static let id = "44444444-0000-0000-0000-000000000004"

    /// Appends `text` to `path` from another process.
    func append(_ text: String, to path: String) async throws {
        try await shell("printf '%s' \(try ShellQuoting.quote(text)) >> \(try ShellQuoting.quote(path))")
    }

    @discardableResult
    func shell(_ script: String) async throws -> String {
        try await Blocking.onThread { try Shell.sh(script) }
    }

    func text(of event: SessionFollowEvent?) -> String? {
        guard case .conversation(.added(let entry, _)) = event else { return nil }
        switch entry {
        case .user(let turn): return turn.text
        case .assistant(let turn): return turn.text
        case .compaction: return nil
        }
    }

    @Test(arguments: ServerKind.allCases)
    func eachAppendedMessageArrivesWithinASecondEvenALineWrittenInTwoHalves(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("first", uuid: "u1", parent: nil, session: Self.id)])
        try await sandbox.withSessions { sessions in
            let events = EventCollector(try await sessions.followSession("44444444"))
            // Once the follow is running (its first event seen, however loaded the machine is)…
            try await append(Records.user("warm-up", uuid: "w1", parent: "u1", session: Self.id) + "\n", to: path)
            #expect(text(of: try await events.event(after: 0, within: 15)) == "warm-up")
            // …each appended message arrives within a second of being written.
            try await append(Records.assistant("answer one", uuid: "a1", parent: "w1", session: Self.id) + "\n", to: path)
            var written = ContinuousClock.now
            let first = try await events.arrival(after: 1, within: 3)
            #expect(text(of: first?.event) == "answer one")
            #expect(first.map { $0.arrival - written } ?? .seconds(99) < .seconds(1))

            let line = Records.user("second prompt", uuid: "u2", parent: "a1", session: Self.id) + "\n"
            let half = line.utf8.count / 2
            try await append(String(decoding: Array(line.utf8.prefix(half)), as: UTF8.self), to: path)
            #expect(try await events.event(after: 2, within: 0.8) == nil, "half a line is not an event")
            try await append(String(decoding: Array(line.utf8.dropFirst(half)), as: UTF8.self), to: path)
            written = ContinuousClock.now
            let second = try await events.arrival(after: 2, within: 3)
            #expect(text(of: second?.event) == "second prompt")
            #expect(second.map { $0.arrival - written } ?? .seconds(99) < .seconds(1))
            await events.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func followingSurvivesTruncationAndReplacementOfTheFile(kind: ServerKind) async throws {
        let sandbox = try TestBox(kind)
        defer { sandbox.remove() }
        let path = try sandbox.writeSession(
            Self.id,
            lines: [
                Records.user("first", uuid: "u1", parent: nil, session: Self.id),
                Records.assistant("one", uuid: "a1", parent: "u1", session: Self.id),
            ])
        try await sandbox.withSessions { sessions in
            let events = EventCollector(try await sessions.followSession(Self.id, pollInterval: .milliseconds(100)))
            try await append(Records.user("running", uuid: "x1", parent: "a1", session: Self.id) + "\n", to: path)
            #expect(text(of: try await events.event(after: 0, within: 15)) == "running")
            try await shell(": > \(try ShellQuoting.quote(path))")
            guard case .restarted(let reason) = try await events.event(after: 1, within: 5) else {
                Issue.record("no restart on truncation")
                return
            }
            #expect(reason == "truncated")
            try await append(Records.user("after truncation", uuid: "t1", parent: nil, session: Self.id) + "\n", to: path)
            #expect(text(of: try await events.event(after: 2, within: 5)) == "after truncation")

            let replacement = path + ".new"
            try Data((Records.user("replaced", uuid: "r1", parent: nil, session: Self.id) + "\n").utf8).write(
                to: URL(fileURLWithPath: replacement))
            try await shell("mv \(try ShellQuoting.quote(replacement)) \(try ShellQuoting.quote(path))")
            guard case .restarted(let why) = try await events.event(after: 3, within: 5) else {
                Issue.record("no restart on replacement")
                return
            }
            #expect(why == "replaced")
            #expect(text(of: try await events.event(after: 4, within: 5)) == "replaced")
            await events.stop()
        }
    }

    // MARK: Ending the follow ends its loop on the box

    /// Follows a one-line session on the shared server of `kind` and runs `body` once the loop
    /// runs on the box; `watch` finds the loop by its script and the session's unique path.
    func whileFollowing(
        on kind: ServerKind,
        _ body: (_ follow: SessionFollow, _ watch: RemoteProcessWatch, _ path: String, _ connection: SSHConnection) async throws -> Void
    ) async throws {
        let (sandbox, path, watch) = try followedSession(on: kind)
        defer { sandbox.remove() }
        try await sandbox.withSessions { sessions in
            let follow = try await sessions.followSession(Self.id)
            let running = try await watch.waitUntilRunning(within: 15)
            #expect(running, "the follow loop never showed up on the box")
            guard running else { return }
            try await body(follow, watch, path, try #require(sessions.connection))
            try watch.signal(SIGKILL)  // nothing left behind for later tests, whatever failed
        }
    }

    /// The loop is gone (the process table was checked) and the connection still runs commands.
    func expectLoopGone(_ watch: RemoteProcessWatch, connection: SSHConnection, within seconds: Double = 5) async throws {
        let left = try await watch.leftovers(after: seconds)
        #expect(left.isEmpty, "the remote loop is still running: \(left)")
        if !left.isEmpty { try watch.signal(SIGKILL) }
        #expect(try await connection.run("echo still here").stdoutText == "still here\n")
    }

    @Test(arguments: ServerKind.allCases)
    func breakingOutOfTheLoopStopsTheRemoteLoopAndTheConnectionGoesOn(kind: ServerKind) async throws {
        try await whileFollowing(on: kind) { follow, watch, path, connection in
            try await append(Records.user("next", uuid: "n1", parent: "u1", session: Self.id) + "\n", to: path)
            var seen = 0
            for try await _ in follow {
                seen += 1
                break
            }
            #expect(seen == 1)
            try await expectLoopGone(watch, connection: connection)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func cancellingTheIteratingTaskStopsTheRemoteLoopAndEndsTheIteration(kind: ServerKind) async throws {
        try await whileFollowing(on: kind) { follow, watch, _, connection in
            let task = Task { for try await _ in follow {} }
            task.cancel()
            try await task.value  // ends, without an error
            try await expectLoopGone(watch, connection: connection)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func droppingTheIteratorAndTheFollowStopsTheRemoteLoop(kind: ServerKind) async throws {
        let (sandbox, path, watch) = try followedSession(on: kind)
        defer { sandbox.remove() }
        try await sandbox.withSessions { sessions in
            try await readOneEvent(of: try await sessions.followSession(Self.id), appendingTo: path, watch: watch)
            try await expectLoopGone(watch, connection: try #require(sessions.connection))
        }
    }

    @Test(arguments: ServerKind.allCases)
    func droppingAFollowNeverIteratedStopsTheRemoteLoop(kind: ServerKind) async throws {
        let (sandbox, _, watch) = try followedSession(on: kind)
        defer { sandbox.remove() }
        try await sandbox.withSessions { sessions in
            var follow: SessionFollow? = try await sessions.followSession(Self.id)
            #expect(try await watch.waitUntilRunning(within: 15))
            #expect(follow != nil)
            follow = nil
            try await expectLoopGone(watch, connection: try #require(sessions.connection))
        }
    }

    /// A sandbox with one session, and a watch on the loop that will follow it.
    private func followedSession(on kind: ServerKind) throws -> (TestBox, path: String, RemoteProcessWatch) {
        let sandbox = try TestBox(kind)
        let path = try sandbox.writeSession(Self.id, lines: [Records.user("first", uuid: "u1", parent: nil, session: Self.id)])
        return (sandbox, path, RemoteProcessWatch(markers: path, "while :; do"))
    }

    /// Takes one event with an iterator of its own, then lets go of both.
    private func readOneEvent(of follow: SessionFollow, appendingTo path: String, watch: RemoteProcessWatch) async throws {
        var iterator = follow.makeAsyncIterator()
        #expect(try await watch.waitUntilRunning(within: 15))
        try await append(Records.user("next", uuid: "n1", parent: "u1", session: Self.id) + "\n", to: path)
        #expect(text(of: try await iterator.next()) == "next")
    }

    @Test(arguments: ServerKind.allCases)
    func stopReturnsOnlyOnceTheRemoteLoopIsGoneAndEndsTheIteration(kind: ServerKind) async throws {
        try await whileFollowing(on: kind) { follow, watch, _, connection in
            let task = Task { for try await _ in follow {} }
            try await follow.stop()
            let left = watch.running()  // checked once: stop() waited for the kill
            #expect(left.isEmpty, "the remote loop outlived stop(): \(left)")
            try await task.value
            try await follow.stop()  // again: nothing left to do
            try await expectLoopGone(watch, connection: connection, within: 0)
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aRemoteLoopKilledOnTheBoxEndsTheIterationWithAnError(kind: ServerKind) async throws {
        try await whileFollowing(on: kind) { follow, watch, _, connection in
            let task = Task { for try await _ in follow {} }
            try watch.signal(SIGKILL)  // on the box, behind the client's back
            // On dropbear the wrapper's shell may fork the loop between the snapshot and the kill.
            try await Task.sleep(for: .milliseconds(300))
            try watch.signal(SIGKILL)
            await #expect {
                try await task.value
            } throws: { error in
                guard case RemoteSessionError.remoteCommandFailed(let step, _, _) = error else { return false }
                return step == "following the session"
            }
            try await expectLoopGone(watch, connection: connection)
        }
    }
}

/// Reads a follow stream in the background and keeps what arrived, for tests to wait on.
private final class EventCollector: Sendable {
    private final class Store: Sendable {
        let events = Mutex<[(event: SessionFollowEvent, arrival: ContinuousClock.Instant)]>([])
    }

    private let store = Store()
    private let task: Task<Void, Error>

    init(_ stream: SessionFollow) {
        let store = store
        task = Task { for try await event in stream { store.events.withLock { $0.append((event, ContinuousClock.now)) } } }
    }

    /// The event after the `count` already taken, or nil when none comes within `seconds`.
    func event(after count: Int, within seconds: Double) async throws -> SessionFollowEvent? {
        try await arrival(after: count, within: seconds)?.event
    }

    /// The event after the `count` already taken and when the stream delivered it.
    func arrival(after count: Int, within seconds: Double) async throws -> (event: SessionFollowEvent, arrival: ContinuousClock.Instant)? {
        try await Eventually.value(within: .seconds(seconds), every: .milliseconds(10)) {
            store.events.withLock { $0.count > count ? $0[count] : nil }
        }
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
