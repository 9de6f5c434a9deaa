import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient

/// `rws-bench detached` (scripts/bench detached): what `rws ask --persist` adds to each
/// streamed event. A stand-in for Claude Code on the box (Python, the stream-json protocol)
/// streams text deltas each carrying the wall-clock time it was written; the client notes when
/// each arrives, once with Claude Code on the channel (direct) and once detached (a file append,
/// `tail -f`, the attach script), alternating rounds on one connection. Prints Markdown.
enum DetachedBenchmark {
    static let rounds = 5
    static let eventsPerTurn = 200

    /// Answers `initialize`, then streams `eventsPerTurn` timed deltas 10 ms apart for each prompt.
    static let standIn = #"""
        #!/usr/bin/env python3
        import json, sys, time
        def out(o):
            sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
        for line in sys.stdin:
            m = json.loads(line)
            if m.get("type") == "control_request":
                out({"type": "control_response", "response": {"subtype": "success", "request_id": m["request_id"], "response": {}}})
            elif m.get("type") == "user":
                init = {"session_id": "bench", "model": "m", "tools": [], "cwd": "/", "permissionMode": "default"}
                out(dict(init, type="system", subtype="init"))
                for i in range(EVENTS):
                    delta = {"type": "text_delta", "text": "%d " % time.time_ns()}
                    out({"type": "stream_event", "event": {"type": "content_block_delta", "index": 0, "delta": delta}})
                    time.sleep(0.01)
                out({"type": "result", "subtype": "success", "is_error": False, "result": "", "session_id": "bench"})
        """#

    static func run(server: TestSSHServer) async throws {
        let program = server.remoteHome + "/claude-stand-in"
        try standIn.replacingOccurrences(of: "EVENTS", with: String(eventsPerTurn)).write(
            toFile: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        var direct: [Double] = [], detached: [Double] = []
        try await server.withConnection { connection in
            for _ in 0..<rounds {
                direct += try await latencies(on: connection, program: program, detached: false)
                detached += try await latencies(on: connection, program: program, detached: true)
            }
        }
        let rows = [("direct (`rws ask`)", direct), ("detached (`rws ask --persist`)", detached)]
        print(MarkdownTable(timings: rows, step: "path (loopback, OpenSSH)", runs: "events"))
        let extra = median(detached) - median(direct)
        print(String(format: "\nextra per event, p50: %.2f ms", extra * 1000))
    }

    /// Seconds from each delta's writing on the box to its arrival here, for one turn.
    private static func latencies(on connection: SSHConnection, program: String, detached: Bool) async throws -> [Double] {
        var options = ClaudeConversationOptions(claudeExecutable: program)
        options.detached = detached ? ClaudeDetachedPolicy(idleTimeout: .seconds(60)) : nil
        let conversation = try await ClaudeConversation.start(on: connection, options: options)
        var samples: [Double] = []
        for try await event in try await conversation.send("go") {
            guard case .textDelta(let text) = event, let sent = Double(text.trimmingCharacters(in: .whitespaces)) else { continue }
            samples.append(Date().timeIntervalSince1970 - sent / 1e9)
        }
        await conversation.stop()
        guard samples.count == eventsPerTurn else { throw BenchFailure("got \(samples.count) of \(eventsPerTurn) events") }
        return samples
    }
}
