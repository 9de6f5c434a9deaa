import ArgumentParser
import Foundation
import RemoteWorkspace
import SSHClient
import SessionHistory
import Synchronization

/// Output formats of a session.
enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, json

    var exportFormat: ExportFormat {
        switch self {
        case .text: return .text
        case .markdown: return .markdown
        case .json: return .json
        }
    }
}

struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show one Claude Code session: prompts, answers, tool calls; --follow to watch it live.",
        discussion: """
            SESSION is a session id on the box (a unique prefix is enough; see `rws sessions`), or a session file (.jsonl) on \
            this machine when no host is given. Subagent transcripts are included. Text output shows the role and time of each \
            message, tool calls one line each, long tool output folded.

            --follow prints the session, then each new message as Claude Code writes it, until Ctrl+C. It needs nothing on the \
            box but sh: the file is polled four times a second. A lost link is re-established (attempts 1 s to 30 s apart, for \
            --reconnect-for, default 4 minutes) and the follow resumes after the last complete line, so no message is lost or \
            shown twice; when the link does not come back in that time, rws says how long it tried and exits with status 255. \
            --no-reconnect ends the follow at the first loss instead (exit status 255). Ctrl+C (or SIGTERM, SIGHUP) stops that \
            polling loop on the box, and rws exits once it is gone: 130 after Ctrl+C, 143 after SIGTERM, 129 after SIGHUP.

            A session Claude Code moved on with /background ends with a line naming the session it continues in; --chain \
            shows that one after it, and so on. Record types rws does not know are kept and named at -v.

            Examples:
              rws history --host box 0b1c
              rws history --host box 0b1c --follow
              rws history --host box 0b1c --last 20 --follow
              rws history --host box 0b1c --format markdown > session.md
              rws history --host box 0b1c --at 5c4a25c7-ccba-48f8-af91-49219cca4e65
              rws history --host box 0b1c --chain
              rws history ~/.claude/projects/-home-me-app/0b1c....jsonl
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "A session id or id prefix on the box, or a local session file (.jsonl).", completion: .file(extensions: ["jsonl"]))
    var session: String

    @Option(name: .long, help: "text (readable at a glance), markdown, or json.")
    var format: HistoryFormat = .text

    @Flag(name: .long, help: "Include the model's thinking.")
    var thinking = false

    @Flag(name: .long, help: "Keep printing new messages as the session grows (text or markdown), until Ctrl+C (exit status 130).")
    var follow = false

    @Flag(name: .long, help: "With --follow: end (exit status 255) when the link is lost instead of reconnecting.")
    var noReconnect = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --follow: how long to try to re-establish a lost link before giving up (default 4m).", valueName: "duration"))
    var reconnectFor: DurationArgument?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only the last N messages: on a box, read backwards from the end of the file (fast on slow links; " + "subagents left out).",
            valueName: "n"))
    var last: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Start at the message holding this record (a uuid `rws search` shows).", valueName: "uuid"))
    var at: String?

    @Flag(name: .long, help: "Also show the sessions this one was continued in (Claude Code's /background), one after another.")
    var chain = false

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last takes a number of messages, 1 or more") }
        if at != nil, last != nil { throw ValidationError("--at and --last both choose where to start; give one") }
        if follow, format == .json { throw ValidationError("--follow prints text or markdown; leave out --format json") }
        if noReconnect, !follow { throw ValidationError("--no-reconnect goes with --follow") }
        if reconnectFor != nil, !follow || noReconnect {
            throw ValidationError("--reconnect-for goes with --follow, without --no-reconnect")
        }
        if chain, follow || last != nil || at != nil {
            throw ValidationError("--chain shows whole sessions one after another; leave out --follow, --last and --at")
        }
    }

    func run() async throws {
        try await runReportingErrors(json: format == .json) {
            var options = RenderOptions()
            options.includeThinking = thinking
            guard RemoteSessionsSupport.isRemote(session, connection: connection) else {
                guard !follow else { throw CLIError.usage("--follow watches a session on a box: give --host") }
                let file = try RemoteSessionsSupport.localSessionFile(session)
                var loaded = try LocalSession.load(at: file, retention: .conversation)
                if let last { loaded.conversation = loaded.conversation.suffix(messages: last) }
                if let at { loaded.conversation = try Self.conversation(loaded.conversation, from: at, in: session) }
                reportLineIssues(loaded.lines.issues)
                reportRecordTypes(loaded.lines.records, of: loaded.summary.id)
                loaded.render(format.exportFormat, options: options) { Terminal.out($0) }
                return 0
            }
            let reconnect = follow && !noReconnect ? Self.followReconnect(for: reconnectFor?.duration ?? .seconds(240)) : nil
            // Before the session is shown: a signal sent once it is on screen must find the handler
            // registered, not the moment between ignoring the signal and taking it over.
            let ends = follow ? FollowEnds() : nil
            defer { ends?.remove() }
            return try await RemoteSessionsSupport.withBox(connection, workspace, reconnect: reconnect) { sessions, ssh -> Int32 in
                // Streamed and decoded as it arrives: memory follows what is shown, not the file's size.
                let load = SessionLoadOptions(lastMessages: last, retention: .conversation)
                var loaded = try await sessions.load(try await sessions.findSession(session), options: load)
                if let at { loaded.conversation = try Self.conversation(loaded.conversation, from: at, in: session) }
                reportLineIssues(loaded.lines.issues)
                reportRecordTypes(loaded.lines.records, of: loaded.summary.id)
                if format != .json, let earlier = loaded.summary.continuedFrom {
                    Terminal.out("— continues session \(earlier.safeLine) (rws history \(earlier.safeLine))\n")
                }
                loaded.render(format.exportFormat, options: options) { Terminal.out($0) }
                if chain {
                    try await Self.renderContinuations(of: loaded, sessions: sessions, format: format.exportFormat, options: options)
                } else if format != .json, let later = loaded.summary.continuedIn {
                    Terminal.out("— continued in session \(later.safeLine) (rws history \(later.safeLine), or --chain)\n")
                }
                guard let ends else { return 0 }
                return try await Self.follow(
                    loaded, sessions: sessions, connection: ssh, ends: ends, format: format.exportFormat, options: options)
            }
        }
    }

    /// `--chain`: each session the previous one was continued in, loaded and rendered after it,
    /// until one that was not continued (or a loop, or a continuation that is gone).
    static func renderContinuations(
        of first: RemoteSession, sessions: RemoteSessions, format: ExportFormat, options: RenderOptions
    ) async throws {
        var seen: Set<String> = [first.summary.id]
        var next = first.summary.continuedIn
        while let id = next, seen.insert(id).inserted {
            guard let listing = try? await sessions.findSession(id) else {
                Terminal.out("— continued in session \(id.safeLine), which is no longer on the box\n")
                return
            }
            if format != .json { Terminal.out("\n— continued in session \(id.safeLine) —\n\n") }
            let loaded = try await sessions.load(listing, options: SessionLoadOptions(retention: .conversation))
            loaded.render(format, options: options) { Terminal.out($0) }
            next = loaded.summary.continuedIn
        }
    }

    /// The conversation from the record `uuid` on (`--at`).
    static func conversation(_ conversation: Conversation, from uuid: String, in session: String) throws -> Conversation {
        guard let suffix = conversation.suffix(fromRecord: uuid) else {
            throw CLIError.failed(
                "session \(session) has no message with record \(uuid); give a uuid that `rws search` shows for this session",
                code: RWSExitCode.noInput)
        }
        return suffix
    }

    /// How `--follow` re-establishes a lost link: 1 s → 30 s apart, 12 attempts (about four minutes).
    /// Attempts 1 s to 30 s apart until their delays add up to `duration` (4 minutes: 12 attempts).
    static func followReconnect(for duration: Duration) -> ReconnectPolicy {
        var policy = ReconnectPolicy(maximumAttempts: 1, waitForConnection: .seconds(60))
        var waited = Duration.zero
        var delay = policy.initialDelay
        var attempts = 0
        while waited < duration {
            attempts += 1
            waited += delay
            delay = min(policy.maximumDelay, delay * policy.multiplier)
        }
        policy.maximumAttempts = max(1, attempts)
        return policy
    }

    /// At `-v`: each line of the file that could not be decoded, a torn last line named as such.
    private func reportLineIssues(_ issues: [LineIssue]) {
        guard !issues.isEmpty else { return }
        let logger = connection.logging.logger("rws.history")
        for issue in issues { logger.info("session \(session): \(issue) — the line is left out") }
    }

    /// At `-v`: the record types of the session rws does not know, with their counts (kept raw,
    /// shown nowhere; `rws record-types` reports them across sessions).
    private func reportRecordTypes(_ records: [SessionRecord], of id: String) {
        let unknown = RecordTypeCensus(records: records).unknown
        guard !unknown.isEmpty else { return }
        let names = unknown.map { "\($0.type.safeLine) (\($0.count))" }.joined(separator: ", ")
        connection.logging.logger("rws.history").info("session \(id): record types rws does not know, kept raw: \(names)")
    }

    /// What ends a follow: one of ``EndingSignal/numbers`` or a failure of the follow itself.
    ///
    /// The signals are taken over before the session is loaded and shown, since a caller that sees it
    /// on screen may signal at once. Until the follow starts, a signal still ends rws as it would
    /// without a handler: nothing runs on the box yet that rws would have to stop.
    final class FollowEnds: Sendable {
        enum End: Sendable {
            case signal(Int32)
            case failed(any Error)
        }

        let stream: AsyncStream<End>
        private let report: AsyncStream<End>.Continuation
        private let following: Following
        private let handler: Mutex<InterruptHandler>

        /// Whether the follow started; under its lock a signal either ends rws or is reported, so the
        /// loop cannot start on the box between the check and rws's end.
        private final class Following: Sendable {
            let started = Mutex(false)
        }

        /// Takes the signals over.
        init() {
            let (stream, report) = AsyncStream.makeStream(of: End.self)
            let following = Following()
            let ending = EndingSignal()
            (self.stream, self.report, self.following) = (stream, report, following)
            handler = Mutex(
                ending.handle {
                    let number = ending.number ?? SIGTERM
                    following.started.withLock { started in
                        if started { report.yield(.signal(number)) } else { EndingSignal.dieOf(number) }
                    }
                })
        }

        /// From here on a signal ends the follow (and stops its loop on the box) instead of rws.
        func startFollowing() { following.started.withLock { $0 = true } }

        /// Ends the follow with `error`.
        func fail(_ error: any Error) { report.yield(.failed(error)) }

        /// Gives the signals their default effect back.
        func remove() { handler.withLock { $0.remove() } }
    }

    /// Prints new events until one of ``EndingSignal/numbers`` arrives, stops the remote loop, and
    /// returns 128 + the signal's number once the loop is gone.
    static func follow(
        _ loaded: RemoteSession, sessions: RemoteSessions, connection: SSHConnection, ends: FollowEnds, format: ExportFormat,
        options: RenderOptions
    ) async throws -> Int32 {
        let lostSince = GaveUpReconnecting.watch(connection)
        defer { lostSince.cancel() }
        ends.startFollowing()
        let follow = try sessions.follow(loaded)
        let printing = Task {
            var printer = FollowPrinter(format: format, options: options, continuing: loaded.conversation.entries)
            do {
                for try await event in follow { printer.print(event) }
            } catch {
                ends.fail(error)
            }
        }
        var iterator = ends.stream.makeAsyncIterator()
        switch await iterator.next() {
        case .signal(let number):
            printing.cancel()
            do {
                try await follow.stop()
            } catch let error as SSHError {
                // Says which processes survived, or why that could not be checked.
                if case .stopFailed = error { throw error }
                if case .stopUnverified = error { throw error }
                throw CLIError.failed(
                    "the connection ended before the follow loop on the box was stopped; it may still run " + "there (\(error))",
                    code: RWSExitCode.connectionFailed)
            }
            await printing.value
            return 128 + number
        case .failed(let error):
            throw GaveUpReconnecting.explain(error, since: lostSince, connection: connection)
        case nil:
            return RWSExitCode.failure  // unreachable: the stream is never finished
        }
    }
}
