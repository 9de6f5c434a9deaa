import Foundation
import SessionHistory

/// One thing a Claude Code session on the box did that someone away from it may care about, as
/// rws's hook recorded it (see ``ClaudeHookScript``).
public struct ClaudeAttentionEvent: Sendable, Equatable {
    /// When the hook ran (box clock, whole seconds).
    public var time: Date
    /// The session's id; empty for a request's closing line.
    public var sessionID: String
    /// The session's working directory on the box.
    public var directory: String
    /// The session file on the box.
    public var transcriptPath: String
    /// What happened.
    public var kind: Kind
    /// Whether the event was guessed from session files (``ClaudeAttentionInference``), not
    /// reported by the hook.
    public var isInferred = false
    /// The permission mode the session runs in, as the hook reported it (`permission_mode`) or
    /// the session file recorded it (inferred events); `nil` when unknown.
    public var permissionMode: String?

    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The session started (`startup`, `resume`, `clear`, `compact`).
        case started(source: String)
        /// The user sent a prompt: the session works again.
        case promptSubmitted(prompt: String)
        /// Claude Code asks whether a tool may run; answerable through rws when `request` is set.
        case permissionRequested(ClaudeAttentionRequest)
        /// Claude Code has waited for the user's input for a while.
        case waitingForInput(message: String)
        /// Another notification (a permission prompt shown for a while, an MCP dialog, …).
        case notification(type: String, message: String)
        /// The turn ended; the last line of the answer.
        case finished(lastLine: String)
        /// The session ended (`clear`, `logout`, `prompt_input_exit`, `other`).
        case ended(reason: String)
        /// A permission request stopped waiting for rws.
        case requestClosed(id: String, reason: ClaudeAttentionRequest.Closing)
        /// An event rws does not know, by its name.
        case other(name: String)
    }

    /// What the event asks of the user, in a few words: "permission: Bash(npm test)",
    /// "waiting for your input", "finished: done.", "ended"; nil for events that ask nothing.
    public var summary: String? {
        switch kind {
        case .permissionRequested(let request): return "permission: \(request.toolName)(\(request.inputSummary))"
        case .waitingForInput: return "waiting for your input"
        case .notification(_, let message): return message.isEmpty ? nil : message
        case .finished(let lastLine): return lastLine.isEmpty ? "finished" : "finished: \(lastLine)"
        case .ended: return "ended"
        case .started, .promptSubmitted, .requestClosed, .other: return nil
        }
    }
}

/// A permission request seen by the hook.
public struct ClaudeAttentionRequest: Sendable, Equatable {
    /// The id to answer it by (``ClaudeAttentionWatch/answer(_:with:)``); nil when no watcher
    /// held the lease when it was made, so the hook is not waiting.
    public var id: String?
    /// The tool, as Claude Code names it (`Bash`, `Write`, `mcp__server__tool`).
    public var toolName: String
    /// The tool's input as the hook recorded it (long strings cut).
    public var input: JSONValue
    /// The permission updates Claude Code suggests with the call, as it sent them; ``grants``
    /// turns them into choices.
    public var suggestions: [JSONValue]

    /// What an answer may grant beyond this call, the narrowest first, each on its own
    /// (``ClaudePermissionGrant/choices(toolName:input:suggestions:)``).
    public var grants: [ClaudePermissionGrant] {
        ClaudePermissionGrant.choices(toolName: toolName, input: input, suggestions: suggestions)
    }

    /// The input in one line: its command or path when it has one, else compact JSON (cut).
    public var inputSummary: String {
        for key in ["command", "file_path", "path", "pattern", "url"] {
            if let value = input[key]?.stringValue { return value }
        }
        let text = JSONWriter.string(from: input)
        return text.count <= 120 ? text : String(text.prefix(120)) + "…"
    }

    /// Why a request stopped waiting.
    public enum Closing: String, Sendable, Equatable {
        /// rws answered it.
        case answered
        /// It was answered in Claude Code itself.
        case elsewhere
        /// Claude Code stopped waiting for the hook: the request was answered another way (its own
        /// dialog, or a client of its control protocol such as `rws ask`), or the session ended.
        case withdrawn
        /// No watcher held the lease any more.
        case unwatched
        /// The hook's wait ran out.
        case timeout
        /// A reason this rws does not know.
        case unknown
    }
}

extension ClaudeAttentionEvent {
    /// The event of one spool line; nil for a line that is not one (cut, or not JSON).
    init?(spoolLine line: some Collection<UInt8>) {
        guard let value = try? JSONValue(parsing: line), case .object = value else { return nil }
        time = Date(timeIntervalSince1970: value["at"]?.numberValue ?? 0)
        let requestID = value["request"]?.stringValue
        if let closed = value["closed"]?.stringValue, let requestID {
            sessionID = ""
            directory = ""
            transcriptPath = ""
            kind = .requestClosed(id: requestID, reason: ClaudeAttentionRequest.Closing(rawValue: closed) ?? .unknown)
            return
        }
        guard let event = value["event"] else { return nil }
        sessionID = event["session_id"]?.stringValue ?? ""
        directory = event["cwd"]?.stringValue ?? ""
        transcriptPath = event["transcript_path"]?.stringValue ?? ""
        permissionMode = event["permission_mode"]?.stringValue
        kind = Self.kind(of: event, requestID: requestID)
    }

    private static func kind(of event: JSONValue, requestID: String?) -> Kind {
        let name = event["hook_event_name"]?.stringValue ?? ""
        func text(_ key: String) -> String { event[key]?.stringValue ?? "" }
        switch name {
        case "SessionStart": return .started(source: text("source"))
        case "UserPromptSubmit": return .promptSubmitted(prompt: text("prompt"))
        case "PermissionRequest":
            return .permissionRequested(
                ClaudeAttentionRequest(
                    id: requestID, toolName: text("tool_name"), input: event["tool_input"] ?? .object(JSONObject()),
                    suggestions: event["permission_suggestions"]?.arrayValue ?? []))
        case "Notification":
            let type = text("notification_type")
            return type == "idle_prompt" ? .waitingForInput(message: text("message")) : .notification(type: type, message: text("message"))
        case "Stop":
            let lines = text("last_assistant_message").split(whereSeparator: \.isNewline)
            let last = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            return .finished(lastLine: last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "")
        case "SessionEnd": return .ended(reason: text("reason"))
        default: return .other(name: name)
        }
    }
}
