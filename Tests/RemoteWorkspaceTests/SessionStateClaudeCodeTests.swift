import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// The state, context use and message count a listing shows, for files the real Claude Code CLI
/// writes on the test box (talking to a scripted model).
@Suite(.serialized, .timeLimit(.minutes(2))) struct SessionStateClaudeCodeTests {
    static func listed(_ ssh: SSHConnection, _ id: String) async throws -> RemoteSessionListing {
        let sessions = RemoteSessions(connection: ssh, cache: nil)
        return try #require(try await sessions.listSessions().first { $0.id == id })
    }

    @Test func aPermissionQuestionAFinishedTurnAndAnAPIErrorReadAsClaudeCodeWasDoing() async throws {
        let box = try TestBox(
            modelInSettings: false,
            claude: [
                Turn.bash("echo hi > asked.txt"),
                Turn.text("Understood, I left it."),
                Turn.error(529, "Overloaded"), Turn.error(529, "Overloaded"),
            ])
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            var id: String?
            var whileAsking: RemoteSessionListing?
            for try await event in try await conversation.send("Make asked.txt") {
                if case .sessionStarted(let info) = event { id = info.id }
                if case .permissionRequest(let request) = event {
                    // Claude Code waits for the answer: the file ends with the tool call once its
                    // write queue is flushed (the call's lines can land a moment after the question).
                    let deadline = ContinuousClock.now + .seconds(15)
                    let sessionID = try #require(id)
                    repeat {
                        // The file may not be listed yet: Claude Code writes it as its queue flushes.
                        whileAsking = try await RemoteSessions(connection: ssh, cache: nil).listSessions().first { $0.id == sessionID }
                        if whileAsking?.summary.activity == .toolPending { break }
                        try await Task.sleep(for: .milliseconds(100))
                    } while ContinuousClock.now < deadline
                    try await conversation.respond(to: request, with: .deny(message: "Not now."))
                }
            }
            let session = try #require(id)
            let asking = try #require(whileAsking)
            #expect(asking.summary.activity == .toolPending)
            #expect(asking.summary.state(now: asking.file.modified + 5) == .running)
            #expect(asking.summary.state(now: asking.file.modified + 120) == .waitingForPermission)

            let finished = try await Self.listed(ssh, session)
            #expect(finished.summary.activity == .turnEnded)
            #expect(finished.summary.state(now: Int(Date().timeIntervalSince1970)) == .waitingForInput)
            #expect(finished.summary.state(now: finished.file.modified + 7_200) == .ended)
            #expect(finished.summary.contextUse.map { $0.tokens > 0 } == true)
            #expect((finished.summary.messageCount ?? 0) >= 4, "prompt, tool call, refusal, answer")

            _ = try await collect(try await conversation.send("Once more"), in: conversation)
            let failed = try await Self.listed(ssh, session)
            let tail = try Self.lastLines(box.sessionFile(session))
            #expect(failed.summary.activity == .failed, "last lines: \(tail)")
            #expect(failed.summary.state(now: failed.file.modified) == .endedWithError)
            await conversation.stop()
        }
    }

    static func lastLines(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").suffix(8).map { piece -> String in
            let line = String(piece)
            let type = line.range(of: "\"type\":\"").map { String(line[$0.upperBound...].prefix(30)) } ?? "?"
            let error = line.range(of: "rror").map { String(line[$0.lowerBound...].prefix(150)) } ?? ""
            return type + " … " + error
        }.joined(separator: "\n")
    }
}
