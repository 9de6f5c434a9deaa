import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// A session loaded over SSH and then followed from where the load ended: the follow's events go
/// on from the loaded conversation, so applying them gives what loading it again gives.
@Suite(.timeLimit(.minutes(1))) struct SessionFollowContinuationTests {
    static let id = "44444444-0000-0000-0000-0000000000c0"

    private static let call =
        #"{"parentUuid":"u1","isSidechain":false,"type":"assistant","uuid":"a1","sessionId":"\#(id)","cwd":"/home/dev/proj","#
        + #""timestamp":"2026-01-02T10:00:05.000Z","message":{"id":"msg_a1","role":"assistant","model":"claude-test","#
        + #""content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}"#
    private static let result =
        #"{"parentUuid":"a1","isSidechain":false,"type":"user","uuid":"r1","sessionId":"\#(id)","cwd":"/home/dev/proj","#
        + #""timestamp":"2026-01-02T10:00:06.000Z","message":{"role":"user","content":[{"type":"tool_result","#
        + #""tool_use_id":"toolu_1","content":"a.txt"}]}}"#

    @Test(arguments: ServerKind.allCases)
    func aFollowOfALoadedSessionNumbersAfterItAndCompletesItsLastCall(kind: ServerKind) async throws {
        let box = try TestBox(kind)
        defer { box.remove() }
        let path = try box.writeSession(Self.id, lines: [Records.user("list it", uuid: "u1", parent: nil, session: Self.id), Self.call])
        try await box.withSessions { sessions in
            let loaded = try await sessions.loadSession(Self.id)
            #expect(loaded.conversation.entries.count == 2)
            let follow = try sessions.follow(loaded)
            var iterator = follow.makeAsyncIterator()
            let answer = Records.assistant("One file.", uuid: "a2", parent: "r1", session: Self.id)
            let lines = try [Self.result, answer, path].map(ShellQuoting.quote)
            try Shell.sh("printf '%s\\n%s\\n' \(lines[0]) \(lines[1]) >> \(lines[2])")

            var entries = loaded.conversation.entries
            var seen: [String] = []
            while seen.count < 2, let event = try await iterator.next() {
                switch event {
                case .conversation(.added(let entry, let index)):
                    seen.append("added \(index)")
                    if index == entries.count { entries.append(entry) }
                case .conversation(.updated(let entry, let index)):
                    seen.append("updated \(index)")
                    if entries.indices.contains(index) { entries[index] = entry }
                default:
                    seen.append("\(event)")
                }
            }
            try await follow.stop()

            // The result completes the loaded call (entry 1); the answer is entry 2, no empty turn between.
            #expect(seen == ["updated 1", "added 2"])
            let reloaded = try await sessions.loadSession(Self.id)
            #expect(Conversation(entries: entries).render(.json) == Conversation(entries: reloaded.conversation.entries).render(.json))
        }
    }
}
