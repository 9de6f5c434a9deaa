import Foundation
import RemoteWorkspace
import SessionHistory

/// Prints the events of `rws watch` (a line, or a JSON object), runs `--exec`, and keeps each
/// session's title: from the listing the first time a session shows up, else its first prompt.
struct WatchPrinter {
    let json: Bool
    let exec: String?
    /// The project directory whose sessions are shown; nil for all.
    let filter: String?
    let sessions: RemoteSessions
    private var titles: [String: String] = [:]
    /// Each session's permission mode last said (``ClaudePermissionMode/questionNote``).
    private var modes: [String: String] = [:]

    init(json: Bool, exec: String?, filter: String?, sessions: RemoteSessions) {
        self.json = json
        self.exec = exec
        self.filter = filter
        self.sessions = sessions
    }

    /// Whether the event belongs to the watched project (closing lines always do).
    func wants(_ event: ClaudeAttentionEvent) -> Bool {
        guard let filter, !event.directory.isEmpty else { return true }
        var directory = filter
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        if directory.hasPrefix("~/") {
            let rest = "/" + directory.dropFirst(2)
            return event.directory.hasSuffix(rest) || event.directory.contains(rest + "/")
        }
        return event.directory == directory || event.directory.hasPrefix(directory + "/")
    }

    mutating func show(_ event: ClaudeAttentionEvent) async {
        let title = await title(of: event)
        let name = Self.name(of: event.kind)
        if json {
            Terminal.out(JSONWriter.string(from: Self.json(event, name: name, title: title)) + "\n")
        } else if let line = line(event, title: title) {
            Terminal.out(line + (event.isInferred ? " (inferred)" : "") + "\n")
            if let note = modeNote(event, title: title) { Terminal.out(note + "\n") }
        }
        if let exec { run(exec, event: event, name: name, title: title) }
    }

    /// Once per session and mode: a line saying that the session's permission mode means no
    /// question (or not every question) will come, so nobody waits here for one.
    private mutating func modeNote(_ event: ClaudeAttentionEvent, title: String) -> String? {
        guard let mode = event.permissionMode, !event.sessionID.isEmpty, modes[event.sessionID] != mode else { return nil }
        modes[event.sessionID] = mode
        guard let note = ClaudePermissionMode(rawValue: mode).questionNote else { return nil }
        let who = [
            (event.directory as NSString).lastPathComponent,
            title.isEmpty ? String(event.sessionID.prefix(8)) : AskPrinter.clip(title, to: 50),
        ]
        .filter { !$0.isEmpty }.joined(separator: " · ")
        return "\(Self.clock.string(from: event.time))  \(who)  permission mode \(mode): \(note)".safeLine
    }

    private mutating func title(of event: ClaudeAttentionEvent) async -> String {
        guard !event.sessionID.isEmpty else { return "" }
        if case .promptSubmitted(let prompt) = event.kind, titles[event.sessionID]?.isEmpty ?? true {
            titles[event.sessionID] = Self.firstLine(prompt)
        }
        if let known = titles[event.sessionID], !known.isEmpty { return known }
        let listed = try? await sessions.listing(project: event.directory.isEmpty ? nil : event.directory, includeUnlisted: true)
        let title = listed?.sessions.first { $0.id == event.sessionID }?.summary.title ?? ""
        titles[event.sessionID] = title
        return title
    }

    private func line(_ event: ClaudeAttentionEvent, title: String) -> String? {
        let time = Self.clock.string(from: event.time)
        let project = (event.directory as NSString).lastPathComponent
        let who = [project, title.isEmpty ? String(event.sessionID.prefix(8)) : AskPrinter.clip(title, to: 50)]
            .filter { !$0.isEmpty }.joined(separator: " · ")
        switch event.kind {
        case .requestClosed(let id, let reason):
            guard reason != .answered else { return nil }
            return "\(time)  request \(id): \(reason.words)".safeLine
        case .started(let source): return "\(time)  \(who)  started (\(source))".safeLine
        case .promptSubmitted: return "\(time)  \(who)  working".safeLine
        case .other(let name): return "\(time)  \(who)  \(name)".safeLine
        default:
            let summary = event.summary.map { AskPrinter.clip($0, to: 160) } ?? ""
            return "\(time)  \(who)  \(summary)".safeLine
        }
    }

    private func run(_ command: String, event: ClaudeAttentionEvent, name: String, title: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessEnvironment.current
        environment["RWS_EVENT"] = name
        environment["RWS_SUMMARY"] = event.summary ?? name
        environment["RWS_TITLE"] = title
        environment["RWS_PROJECT"] = event.directory
        environment["RWS_SESSION"] = event.sessionID
        environment["RWS_TIME"] = ISO8601DateFormatter().string(from: event.time)
        if case .permissionRequested(let request) = event.kind {
            environment["RWS_TOOL"] = request.toolName
            environment["RWS_REQUEST"] = request.id ?? ""
        }
        process.environment = environment
        do {
            try process.run()
        } catch {
            Terminal.err("rws: --exec could not start /bin/sh: \(plainDescription(of: error))\n")
        }
    }

    /// The event's name in JSON and `RWS_EVENT`.
    static func name(of kind: ClaudeAttentionEvent.Kind) -> String {
        switch kind {
        case .started: "started"
        case .promptSubmitted: "prompt"
        case .permissionRequested: "permission"
        case .waitingForInput: "waiting"
        case .notification: "notification"
        case .finished: "finished"
        case .ended: "ended"
        case .requestClosed: "closed"
        case .other: "other"
        }
    }

    static func json(_ event: ClaudeAttentionEvent, name: String, title: String) -> JSONValue {
        var members = [
            JSONMember("type", .string(name)), JSONMember("time", .string(ISO8601DateFormatter().string(from: event.time))),
            JSONMember("session", .string(event.sessionID)), JSONMember("directory", .string(event.directory)),
            JSONMember("title", .string(title)),
        ]
        if let summary = event.summary { members.append(JSONMember("summary", .string(summary))) }
        if event.isInferred { members.append(JSONMember("inferred", .bool(true))) }
        if let mode = event.permissionMode { members.append(JSONMember("permissionMode", .string(mode))) }
        switch event.kind {
        case .permissionRequested(let request):
            members += [
                JSONMember("tool", .string(request.toolName)), JSONMember("input", request.input),
                JSONMember("request", request.id.map(JSONValue.string) ?? .null),
            ]
        case .requestClosed(let id, let reason):
            members += [JSONMember("request", .string(id)), JSONMember("reason", .string(reason.rawValue))]
        case .ended(let reason): members.append(JSONMember("reason", .string(reason)))
        case .started(let source): members.append(JSONMember("source", .string(source)))
        case .other(let name): members.append(JSONMember("event", .string(name)))
        default: break
        }
        return .object(JSONObject(members))
    }

    private static func firstLine(_ text: String) -> String {
        String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
}
