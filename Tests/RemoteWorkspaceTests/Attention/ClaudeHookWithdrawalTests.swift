import Foundation
import Platform
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// A waiting hook whose Claude Code stops waiting for it: Claude Code ends it with SIGTERM once
/// the request was answered another way (its own dialog, `rws ask`'s control protocol) or the
/// session ended, or it is gone without a word. Either way the request closes as withdrawn within
/// a second, watchers are told, and a late answer is refused. OpenSSH and dropbear.
@Suite(.timeLimit(.minutes(1))) struct ClaudeHookWithdrawalTests {
    @Test(arguments: ServerKind.allCases)
    func aWaitingHookEndedWithSIGTERMClosesTheRequestAsWithdrawnAndALateAnswerIsRefused(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        try await box.server.withConnection { connection in
            var waiting = try await box.waitingRequest(ClaudeAttentionWatchTests.bash, on: connection)
            let hook = try hookPID(in: box, request: waiting.id)
            try SystemCall.kill(hook, SIGTERM)
            let signalled = ContinuousClock.now
            let closing = try #require(try await waiting.events.next())
            #expect(ContinuousClock.now - signalled < .seconds(1))
            guard case .requestClosed(let id, let reason) = closing.kind else { throw ScriptCase.Failure("\(closing)") }
            #expect(id == waiting.id && reason == .withdrawn)
            let result = try await waiting.hook.exitStatus()
            #expect(result.isSuccess, "the hook ends well, with no decision for a Claude Code that stopped listening")
            await #expect(throws: ClaudeHooksError.requestClosed(id: id)) { try await waiting.watch.answer(id, with: .allow) }
            try await waiting.watch.stop()
        }
    }

    @Test(arguments: ServerKind.allCases)
    func aWaitingHookWhoseClaudeCodeIsKilledClosesTheRequestAsWithdrawnWithinASecond(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        let payload = box.root + "/payload.json"
        try Data(ClaudeAttentionWatchTests.bash.utf8).write(to: URL(fileURLWithPath: payload))
        try await box.server.withConnection { connection in
            let watch = try await box.startWatch(on: connection)
            var events = watch.makeAsyncIterator()
            // A parent standing for Claude Code: a shell that runs the hook's command (it ends in a
            // comment, hence a line of its own) in the background and waits for it.
            let script = "sh -c " + (try ShellQuoting.quote((try box.hookCommand()) + "\n")) + " <" + (try ShellQuoting.quote(payload))
            let parent = try connection.stream("( " + script + " & wait )", timeout: .seconds(60))
            try await parent.closeInput()
            let first = try #require(try await events.next())
            guard case .permissionRequested(let request) = first.kind, let id = request.id else { throw ScriptCase.Failure("\(first)") }
            let hook = try hookPID(in: box, request: id)
            let parentPID = try #require(LocalProcessTable.process(hook)?.parent)
            try SystemCall.kill(parentPID, SIGKILL)
            let killed = ContinuousClock.now
            let closing = try #require(try await events.next())
            #expect(ContinuousClock.now - killed < .milliseconds(1500), "the hook checks its parent every second")
            guard case .requestClosed(_, let reason) = closing.kind else { throw ScriptCase.Failure("\(closing)") }
            #expect(reason == .withdrawn)
            _ = try? await parent.exitStatus()
            try await watch.stop()
        }
    }

    /// Claude Code writes its transcript late: the result of the call before may land after the
    /// next call's request. The event names no tool_use_id, so the hook finds its call by tool
    /// and input, and only that call's result closes the request.
    @Test(arguments: ServerKind.allCases)
    func aLateResultOfTheCallBeforeLeavesTheRequestOpenAndItsOwnResultClosesIt(kind: ServerKind) async throws {
        let box = try await TestBox.withHooksInstalled(kind)
        defer { box.remove() }
        let transcript = box.root + "/t.jsonl"
        func call(_ id: String, _ command: String) -> String {
            #"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"\#(id)","name":"Bash","#
                + #""input":{"command":"\#(command)"}}]}}"#
        }
        func result(_ id: String) -> String { #"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"\#(id)"}]}}"# }
        try Data((call("toolu_a", "npm test") + "\n" + call("toolu_b", "npm run lint") + "\n").utf8).write(
            to: URL(fileURLWithPath: transcript))
        let payload = ClaudeAttentionWatchTests.payload(
            "PermissionRequest", #","tool_name":"Bash","tool_input":{"command":"npm run lint","description":"lint"}"#
        ).replacingOccurrences(of: "/nowhere/s-1.jsonl", with: transcript)
        try await box.server.withConnection { connection in
            var waiting = try await box.waitingRequest(payload, on: connection)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: transcript))
            handle.seekToEndOfFile()
            handle.write(Data((result("toolu_a") + "\n").utf8))
            try await Task.sleep(for: .milliseconds(800))
            let spool = try String(contentsOfFile: box.hooksFolder + "/events.jsonl", encoding: .utf8)
            #expect(!spool.contains(#""closed""#), "the earlier call's result closed the request:\n\(spool)")
            handle.write(Data((result("toolu_b") + "\n").utf8))
            try handle.close()
            let closing = try #require(try await waiting.events.next())
            guard case .requestClosed(_, let reason) = closing.kind else { throw ScriptCase.Failure("\(closing)") }
            #expect(reason == .elsewhere)
            try await waiting.watch.stop()
        }
    }

    /// The PID the hook waiting on `request` wrote in its spool line (the test box is this machine).
    private func hookPID(in box: TestBox, request: String) throws -> Int32 {
        let spool = try String(contentsOfFile: box.hooksFolder + "/events.jsonl", encoding: .utf8)
        for line in spool.split(separator: "\n") where line.contains(#""request":"\#(request)""#) {
            if let pid = try JSONValue(parsing: String(line))["pid"]?.intValue { return Int32(pid) }
        }
        throw ScriptCase.Failure("no spool line for request \(request):\n\(spool)")
    }
}
