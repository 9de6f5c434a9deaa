import SessionHistory

extension ClaudeEvent {
    /// The event as one JSON object with a `type` member (`session_started`, `text_delta`,
    /// `thinking_delta`, `text`, `thinking`, `tool_call`, `tool_result`, `permission_request`,
    /// `permission_cancelled`, `link_lost`, `reattached`, `usage`, `api_retry`, `error`, `result`), for `rws ask --json`.
    public var json: JSONValue {
        switch self {
        case .sessionStarted(let info):
            return Self.object(
                "session_started",
                [
                    ("session_id", .string(info.id)), ("model", .string(info.model)),
                    ("tools", .array(info.tools.map(JSONValue.string))), ("directory", .string(info.directory)),
                    ("permission_mode", .string(info.permissionMode)),
                    ("claude_code_version", info.claudeCodeVersion.map(JSONValue.string) ?? .null),
                ])
        case .textDelta(let text): return Self.object("text_delta", [("text", .string(text))])
        case .thinkingDelta(let text): return Self.object("thinking_delta", [("thinking", .string(text))])
        case .text(let text): return Self.object("text", [("text", .string(text))])
        case .thinking(let text): return Self.object("thinking", [("thinking", .string(text))])
        case .toolCall(let call):
            return Self.object("tool_call", [("id", .string(call.id)), ("name", .string(call.name)), ("input", call.input)])
        case .toolResult(let result):
            return Self.object(
                "tool_result",
                [
                    ("tool_use_id", .string(result.toolUseID)), ("content", .string(result.content)), ("is_error", .bool(result.isError)),
                ])
        case .permissionRequest(let request):
            return Self.object(
                "permission_request",
                [
                    ("request_id", .string(request.requestID)), ("tool_name", .string(request.toolName)), ("input", request.input),
                    ("description", request.description.map(JSONValue.string) ?? .null),
                    ("requires_user_interaction", .bool(request.requiresUserInteraction)),
                ])
        case .userQuestion(let asked):
            return Self.object(
                "user_question",
                [
                    ("request_id", .string(asked.request.requestID)), ("tool_name", .string(asked.request.toolName)),
                    ("questions", asked.request.input["questions"] ?? .array([])),
                ])
        case .permissionCancelled(let id): return Self.object("permission_cancelled", [("request_id", .string(id))])
        case .linkLost(let reason): return Self.object("link_lost", [("reason", .string(reason))])
        case .reattached: return Self.object("reattached", [])
        case .usage(let usage): return Self.object("usage", Self.members(of: usage))
        case .apiRetry(let attempt, let maxRetries, let status, let error):
            return Self.object(
                "api_retry",
                [
                    ("attempt", .number(Double(attempt))), ("max_retries", .number(Double(maxRetries))),
                    ("status", status.map { .number(Double($0)) } ?? .null), ("error", .string(error)),
                ])
        case .error(let error): return Self.object("error", [("kind", .string(error.kind)), ("message", .string(error.description))])
        case .result(let result):
            return Self.object(
                "result",
                [
                    ("session_id", .string(result.sessionID)), ("text", .string(result.text)), ("is_error", .bool(result.isError)),
                    ("interrupted", .bool(result.wasInterrupted)), ("subtype", .string(result.subtype)),
                    ("duration_ms", .number(Double(Self.milliseconds(result.duration)))),
                    ("api_duration_ms", .number(Double(Self.milliseconds(result.apiDuration)))),
                    ("cost_usd", .number(result.costUSD)), ("turns", .number(Double(result.turns))),
                    ("usage", .object(JSONObject(Self.members(of: result.usage).map { JSONMember($0.0, $0.1) }))),
                    ("denied_tools", .array(result.deniedTools.map(JSONValue.string))),
                    ("turn_cost_usd", result.turnCostUSD.map(JSONValue.number) ?? .null),
                    (
                        "session_usage",
                        result.sessionUsage.map { .object(JSONObject(Self.members(of: $0).map { JSONMember($0.0, $0.1) })) } ?? .null
                    ),
                ])
        }
    }

    private static func object(_ type: String, _ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject([JSONMember("type", .string(type))] + members.map { JSONMember($0.0, $0.1) }))
    }

    private static func members(of usage: TokenUsage) -> [(String, JSONValue)] {
        [
            ("input_tokens", .number(Double(usage.inputTokens))), ("output_tokens", .number(Double(usage.outputTokens))),
            ("cache_read_input_tokens", .number(Double(usage.cacheReadInputTokens))),
            ("cache_creation_input_tokens", .number(Double(usage.cacheCreationInputTokens))),
        ]
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

extension ClaudeConversationError {
    /// A stable name of the case, for JSON output: `claude_not_found`, `not_logged_in`, `api_error`…
    public var kind: String {
        switch self {
        case .claudeNotFound: return "claude_not_found"
        case .directoryNotFound: return "directory_not_found"
        case .filesNotFound: return "files_not_found"
        case .notLoggedIn: return "not_logged_in"
        case .apiError: return "api_error"
        case .turnFailed: return "turn_failed"
        case .processExited: return "process_exited"
        case .startTimedOut: return "start_timed_out"
        case .invalidOption: return "invalid_option"
        case .turnInProgress: return "turn_in_progress"
        case .controlRequestFailed: return "control_request_failed"
        case .stopped: return "stopped"
        case .attachmentUnreadable: return "attachment_unreadable"
        case .detachedNotFound: return "detached_not_found"
        case .takenOver: return "taken_over"
        case .detachedLinkLost: return "detached_link_lost"
        case .detached: return "detached"
        case .endedIdle: return "ended_idle"
        case .detachUnsupported: return "detach_unsupported"
        }
    }
}
