import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// A box on a shared server with rws's hooks installed in its Claude data folder.
extension TestBox {
    /// `<claude dir>/rws`: the hook, its spool and its answers.
    var hooksFolder: String { claudeDirectory + "/rws" }

    /// A fresh box on the shared server of `kind`, the hooks installed there.
    static func withHooksInstalled(_ kind: ServerKind) async throws -> TestBox {
        let box = try TestBox(kind)
        try await box.server.withConnection { _ = try await ClaudeHooks(connection: $0, locations: box.locations).install() }
        return box
    }

    /// The command Claude Code runs, as installed.
    func hookCommand() throws -> String {
        try ClaudeHookSettings(hookPath: hooksFolder + "/hook.sh").command
    }

    /// Starts the hook with `payload` as Claude Code does and leaves it running (it may wait for an answer).
    func startHook(_ payload: String, on connection: SSHConnection) async throws -> RemoteCommand {
        let hook = try connection.stream(try hookCommand(), timeout: .seconds(60))
        try await hook.write(payload)
        try await hook.closeInput()
        return hook
    }

    /// A watch, the hook started with its payload, and the answerable permission request the
    /// watch saw first.
    struct WaitingRequest {
        let watch: ClaudeAttentionWatch
        /// The watch's events after the request.
        var events: ClaudeAttentionWatch.Iterator
        let hook: RemoteCommand
        let event: ClaudeAttentionEvent
        let request: ClaudeAttentionRequest
        let id: String
    }

    /// Starts a watch and the hook with `payload`; fails unless the watch's first event is an
    /// answerable permission request.
    func waitingRequest(_ payload: String, on connection: SSHConnection) async throws -> WaitingRequest {
        let watch = try await startWatch(on: connection)
        var events = watch.makeAsyncIterator()
        let hook = try await startHook(payload, on: connection)
        let event = try #require(try await events.next())
        guard case .permissionRequested(let request) = event.kind, let id = request.id else {
            throw ScriptCase.Failure("not an answerable request: \(event)")
        }
        return WaitingRequest(watch: watch, events: events, hook: hook, event: event, request: request, id: id)
    }

    func runHook(_ payload: String, on connection: SSHConnection) async throws -> CommandResult {
        try await connection.run(try hookCommand(), input: Array(payload.utf8), timeout: .seconds(30))
    }

    func startWatch(on connection: SSHConnection) async throws -> ClaudeAttentionWatch {
        try await ClaudeAttentionWatch.start(on: connection, locations: locations, interval: .milliseconds(100))
    }

    /// The prompts recorded in both generations of the spool, oldest first, to say what a watch missed.
    func promptsInSpool() -> [String] {
        ["/events.jsonl.1", "/events.jsonl"].flatMap { name in
            ((try? String(contentsOfFile: hooksFolder + name, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
                line.range(of: #""prompt":"p[0-9]+""#, options: .regularExpression).map { String(line[$0].dropFirst(10).dropLast()) }
            }
        }
    }

    /// rws's hooks for this box's Claude data folder, on the box's host (a fresh connection).
    func withHooks<T>(_ body: (ClaudeHooks) async throws -> T) async throws -> T {
        try await withHost { host in try await body(ClaudeHooks(host: host, locations: locations)) }
    }

    /// Runs `body` and records an issue unless it throws an error that `check` accepts.
    func withHooksExpectingError(
        _ body: (ClaudeHooks) async throws -> Void, check: (any Error) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await withHooks(body)
            Issue.record("no error", sourceLocation: sourceLocation)
        } catch {
            #expect(check(error), "\(error)", sourceLocation: sourceLocation)
        }
    }
}
