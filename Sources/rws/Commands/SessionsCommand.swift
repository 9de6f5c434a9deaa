import ArgumentParser
import Foundation
import RemoteWorkspace
import SessionHistory

struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List Claude Code sessions on the box, newest first.",
        discussion: """
            One remote command lists every session file with its first and last few KB; a local cache (under ~/.cache/rws, per \
            host) makes the next listing read only what changed. Subagent transcripts are attached to their session, not listed.

            PROJECT narrows the list: a project name in the workspace root (app), a path on the box (/home/me/app or ~/app), or a \
            Claude Code project folder name (-home-me-app). A session that rws ask --persist keeps running with no client \
            attached shows the state detached (rws ask --list-detached gives its id). A session moved on with Claude Code's \
            /background is marked [continued in ID], and its continuation [continues ID]: rws history ID --chain shows both. \
            With --json, each session comes with its \
            path, size, summary and subagent files (and detached: the conversation id, for such a session).

            With --local DIR, lists the sessions of one project folder on this machine instead.

            Examples:
              rws sessions --host box
              rws sessions --host box app --limit 10
              rws sessions --host box --json
              rws sessions --local ~/.claude/projects/-home-me-app
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "Only this project: a workspace project name, a path on the box, or a project folder name.")
    var project: String?

    @Option(name: .long, help: ArgumentHelp("A Claude Code project folder on this machine.", valueName: "dir"), completion: .directory)
    var local: String?

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    @Option(name: .long, help: "Show at most this many sessions.")
    var limit: Int?

    func run() async throws {
        try await runReportingErrors(json: json) {
            if let local {
                let folder = try RemoteSessionsSupport.localFolder(local)
                var listings = try LocalProject.listSessions(in: folder)
                if let limit { listings = Array(listings.prefix(max(0, limit))) }
                Terminal.out(
                    json
                        ? try JSONValueEncoder.text(of: listings.map { WithState($0.summary, summary: $0.summary) })
                        : SessionTable.text(listings.map(\.summary)))
                return 0
            }
            var (listings, detached) = try await RemoteSessionsSupport.withBox(connection, workspace) { sessions, ssh in
                if ssh.serverAbortsOnOverlappingCommands {
                    let listings = try await sessions.listSessions(project: project)
                    return (listings, SessionTable.detachedSessions((try? await ClaudeConversation.listDetached(on: ssh)) ?? []))
                }
                // Beside the listing, not after it: no extra round trip.
                async let conversations = try? ClaudeConversation.listDetached(on: ssh)
                let listings = try await sessions.listSessions(project: project)
                return (listings, SessionTable.detachedSessions(await conversations ?? []))
            }
            if let limit { listings = Array(listings.prefix(max(0, limit))) }
            Terminal.out(
                json
                    ? try JSONValueEncoder.text(of: listings.map { WithState($0, summary: $0.summary, detached: detached[$0.id]) })
                    : SessionTable.text(listings.map(\.summary), detached: detached))
            return 0
        }
    }
}

/// How session summaries look on a terminal and in JSON.
enum SessionTable {
    /// One line per session: id, last time, message count, state, context use, subagents, title.
    /// A session that runs detached with no client (`rws ask --persist`) shows `detached` as its state.
    static func text(
        _ summaries: [SessionSummary], detached: [String: String] = [:], now: Int = Int(Date().timeIntervalSince1970)
    ) -> String {
        guard !summaries.isEmpty else { return "no sessions\n" }
        let width = idWidth(summaries.map(\.id))
        let header = pad("ID", width) + "  LAST              MSGS   STATE       CONTEXT      AGENTS  TITLE\n"
        return header
            + summaries.map { summary in
                let when =
                    summary.lastTimestamp.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ").safeLine }
                    ?? "-               "
                let id = pad(String(summary.id.prefix(width)), width).safeLine
                let title = (summary.title?.safeLine ?? "(untitled)") + link(summary, width: width)
                let state = pad(detached[summary.id] != nil ? "detached" : summary.state(now: now).map(label) ?? "-", 10)
                let agents = pad(summary.subagentCount == 0 ? "-" : String(summary.subagentCount), 6)
                let messages = pad(summary.messageCount.map(String.init) ?? "-", 5)
                return "\(id)  \(when)  \(messages)  \(state)  \(pad(context(summary.contextUse), 11))  \(agents)  \(title)\n"
            }.joined()
    }

    /// What tells a session moved on with `/background` from its continuation (both carry the
    /// same title): `  [continued in ID]` on the earlier, `  [continues ID]` on the later.
    static func link(_ summary: SessionSummary, width: Int) -> String {
        var text = ""
        if let earlier = summary.continuedFrom { text += "  [continues \(String(earlier.prefix(width)).safeLine)]" }
        if let later = summary.continuedIn { text += "  [continued in \(String(later.prefix(width)).safeLine)]" }
        return text
    }

    /// Session id → conversation id of the conversations running detached with no client attached.
    static func detachedSessions(_ conversations: [ClaudeDetachedConversation]) -> [String: String] {
        var sessions: [String: String] = [:]
        for conversation in conversations where conversation.state == .detached {
            if let session = conversation.sessionID { sessions[session] = conversation.id }
        }
        return sessions
    }

    /// The shortest prefix length (at least 8) that tells every id in `ids` from every other;
    /// ids equal to the end are shown whole.
    static func idWidth(_ ids: [String]) -> Int {
        let sorted = ids.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var width = 8
        for (first, second) in zip(sorted, sorted.dropFirst()) {
            let common = zip(first, second).prefix { $0 == $1 }.count
            width = max(width, min(common + 1, max(first.count, second.count)))
        }
        return width
    }

    /// `running`, `input`, `permission`, `ended`, `error`.
    static func label(_ state: SessionState) -> String {
        switch state {
        case .running: "running"
        case .waitingForInput: "input"
        case .waitingForPermission: "permission"
        case .ended: "ended"
        case .endedWithError: "error"
        }
    }

    /// `84k/200k 42%`, or `84k` when the window is unknown.
    static func context(_ use: ContextUse?) -> String {
        guard let use else { return "-" }
        let tokens = thousands(use.tokens)
        guard let window = use.window, let fraction = use.fraction else { return tokens }
        return "\(tokens)/\(thousands(window)) \(Int((fraction * 100).rounded()))%"
    }

    private static func thousands(_ value: Int) -> String {
        value >= 1_000_000 && value % 1_000_000 == 0 ? "\(value / 1_000_000)M" : "\((value + 500) / 1_000)k"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// A value encoded with its session's `state` at listing time added beside its own keys (the
/// state depends on the clock, so summaries and the cache do not store it), and `detached`: the
/// id of the conversation running it detached with no client, if one does.
struct WithState<Value: Encodable>: Encodable {
    let value: Value
    let state: SessionState?
    let detached: String?

    init(_ value: Value, summary: SessionSummary, detached: String? = nil, now: Int = Int(Date().timeIntervalSince1970)) {
        self.value = value
        self.state = summary.state(now: now)
        self.detached = detached
    }

    private enum Keys: String, CodingKey { case state, detached }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(state, forKey: .state)
        try container.encodeIfPresent(detached, forKey: .detached)
    }
}
