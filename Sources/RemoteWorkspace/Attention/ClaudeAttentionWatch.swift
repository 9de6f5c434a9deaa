import Foundation
import SSHClient
import SessionHistory

/// The events of every Claude Code session on the box, as rws's hook records them, followed live
/// over one connection; an async sequence of ``ClaudeAttentionEvent``. Iterate it once.
///
/// While it runs it holds the watcher's lease (the remote loop touches `<folder>/lease` on every
/// look), so permission requests wait for ``answer(_:with:)``. On a connection with a reconnect
/// policy a lost link does not end it: the loop starts again from the last complete report, so no
/// event is lost or repeated. Stop it with ``stop()`` (or by ending the iteration) before closing
/// the connection.
public struct ClaudeAttentionWatch: AsyncSequence, Sendable {
    public typealias Element = ClaudeAttentionEvent

    private let control: FollowControl
    private let offset: Int
    private let connection: SSHConnection
    /// The hook's folder on the box (`<claude dir>/rws`).
    public let folder: String

    /// How often the box looks at the spool.
    public static let defaultInterval = Duration.milliseconds(250)

    /// Starts following the spool of the hooks installed for `locations`, from its current end
    /// (or from its start with `fromStart`).
    ///
    /// - Throws: ``ClaudeHooksError/notInstalled(folder:)`` when the hook is not installed there.
    public static func start(
        on connection: SSHConnection, locations: WorkspaceLocations = WorkspaceLocations(), fromStart: Bool = false,
        interval: Duration = defaultInterval
    ) async throws -> ClaudeAttentionWatch {
        let state = try await ClaudeHooks(connection: connection, locations: locations).inspect(project: nil)
        guard state.hookText != nil else { throw ClaudeHooksError.notInstalled(folder: state.folder + "/rws") }
        let folder = state.folder + "/rws"
        // The lease holds from the start: a request made before the loop's first look still waits.
        try await connection.writeFile(folder + "/lease", contents: [])
        let offset = fromStart ? 0 : state.spool?.size ?? 0
        var loop = FollowScript.Loop(
            path: folder + "/events.jsonl", interval: interval, host: connection, initialIdentity: state.spool?.identity ?? "")
        loop.previousGeneration = folder + "/events.jsonl.1"
        loop.lease = folder + "/lease"
        let remote = try loop.start(at: FollowScript.Position(offset: offset, identity: state.spool?.identity ?? ""))
        return ClaudeAttentionWatch(
            control: FollowControl(loop: loop, remote: remote), offset: offset, connection: connection, folder: folder)
    }

    private init(control: FollowControl, offset: Int, connection: SSHConnection, folder: String) {
        self.control = control
        self.offset = offset
        self.connection = connection
        self.folder = folder
    }

    /// Starts iterating; dropping the iterator stops the remote loop.
    public func makeAsyncIterator() -> Iterator {
        Iterator(iteration: FollowIteration(lifetime: FollowLifetime(control), decoder: Decoder(), offset: offset))
    }

    /// Stops the remote loop and returns once its process group is gone; the lease then lapses.
    public func stop() async throws {
        try await control.stopAndWait()
    }

    /// Answers a waiting permission request; the first answer wins.
    ///
    /// - Throws: ``ClaudeHooksError/requestClosed(id:)`` when it no longer waits (answered by
    ///   another watcher or in Claude Code, or its wait ended).
    public func answer(_ requestID: String, with decision: ClaudeAttentionDecision) async throws {
        guard !requestID.isEmpty, requestID.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
            throw ClaudeHooksError.requestClosed(id: requestID)
        }
        _ = try await ClaudeHookScripts.answer.run(on: connection, [.path(folder), .word(requestID), .word(decision.hookOutput)]) {
            switch $0.status.scriptExit(ClaudeHookScripts.Exit.self) {
            case .notWaiting, .answeredAlready: return ClaudeHooksError.requestClosed(id: requestID)
            default:
                return ClaudeHooksError.remoteCommandFailed(
                    step: ClaudeHookScripts.answer.step, status: $0.status.description, detail: $0.stderrText)
            }
        }
    }

    /// The events in arrival order.
    public struct Iterator: AsyncIteratorProtocol {
        private var iteration: FollowIteration<Decoder>

        init(iteration: FollowIteration<Decoder>) {
            self.iteration = iteration
        }

        /// The next event; nil once the watch was stopped or the task cancelled.
        public mutating func next() async throws -> ClaudeAttentionEvent? {
            try await iteration.next()
        }
    }

    /// Spool lines as events; a line is decoded once its newline came.
    struct Decoder: FollowDecoder {
        private var partial: [UInt8] = []

        mutating func appended(_ bytes: [UInt8]) -> [ClaudeAttentionEvent] {
            partial += bytes
            guard let last = partial.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
            let lines = partial[..<last].split(separator: UInt8(ascii: "\n"))
            partial.removeSubrange(...last)
            return lines.compactMap { ClaudeAttentionEvent(spoolLine: $0) }
        }

        mutating func restarted(reason: String) -> [ClaudeAttentionEvent] {
            partial = []
            return []
        }

        func missing() -> [ClaudeAttentionEvent] { [] }

        /// Not an event of Claude Code's: the watch starts its loop again and loses none.
        func boxOutOfDescriptors() -> [ClaudeAttentionEvent] { [] }
    }
}

/// An answer to a permission request, given through the hook.
public enum ClaudeAttentionDecision: Sendable, Equatable {
    /// Run the tool this once.
    case allow
    /// Run it, and grant exactly `grants` (chosen from ``ClaudeAttentionRequest/grants``).
    case allowGranting([ClaudePermissionGrant])
    /// Do not run it; Claude Code passes `message` to the model.
    case deny(message: String)

    /// The hook's output that gives this decision to Claude Code.
    var hookOutput: String {
        var decision: [JSONMember]
        switch self {
        case .allow: decision = [JSONMember("behavior", .string("allow"))]
        case .allowGranting(let grants):
            decision = [JSONMember("behavior", .string("allow")), JSONMember("updatedPermissions", .array(grants.map(\.update)))]
        case .deny(let message): decision = [JSONMember("behavior", .string("deny")), JSONMember("message", .string(message))]
        }
        let output = JSONObject([
            JSONMember("hookEventName", .string("PermissionRequest")), JSONMember("decision", .object(JSONObject(decision))),
        ])
        return JSONWriter.string(from: .object(JSONObject([JSONMember("hookSpecificOutput", .object(output))])))
    }
}
