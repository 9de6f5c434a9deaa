import SessionHistory

/// One stdout line of Claude Code's stream-json output, sorted by who has to act on it.
enum ClaudeIncoming: Sendable {
    /// The answer to a control request rws sent.
    case controlResponse(requestID: String, result: Result<JSONValue, ClaudeConversationError>)
    /// Claude Code asks whether a tool may run.
    case permissionRequest(ClaudePermissionRequest)
    /// Another control request from Claude Code, which rws does not serve.
    case unsupportedControlRequest(requestID: String, subtype: String)
    /// Events for the running turn; `endsTurn` after the `result` message.
    case events([ClaudeEvent], endsTurn: Bool)
}

/// Turns stream-json lines into ``ClaudeIncoming`` values. Keeps the input token count of the
/// message being streamed, which `message_start` gives and `message_delta` does not repeat.
struct ClaudeMessageParser {
    private var pendingUsage = TokenUsage()

    mutating func parse(_ message: JSONValue) -> ClaudeIncoming {
        switch message["type"]?.stringValue {
        case "control_response": return Self.controlResponse(message["response"] ?? .null)
        case "control_request": return Self.controlRequest(message)
        case "control_cancel_request":
            return .events([.permissionCancelled(requestID: message["request_id"]?.stringValue ?? "")], endsTurn: false)
        case "system": return .events(Self.system(message), endsTurn: false)
        case "stream_event": return .events(streamEvent(message["event"] ?? .null), endsTurn: false)
        case "assistant": return .events(Self.assistant(message["message"] ?? .null), endsTurn: false)
        case "user": return .events(Self.toolResults(message["message"] ?? .null), endsTurn: false)
        case "result": return .events(Self.result(message), endsTurn: true)
        default: return .events([], endsTurn: false)
        }
    }

    private static func controlResponse(_ response: JSONValue) -> ClaudeIncoming {
        let id = response["request_id"]?.stringValue ?? ""
        if response["subtype"]?.stringValue == "error" {
            let message = response["error"]?.stringValue ?? "unknown error"
            return .controlResponse(requestID: id, result: .failure(.controlRequestFailed(subtype: "the request", message: message)))
        }
        return .controlResponse(requestID: id, result: .success(response["response"] ?? .null))
    }

    private static func controlRequest(_ message: JSONValue) -> ClaudeIncoming {
        let id = message["request_id"]?.stringValue ?? ""
        let request = message["request"] ?? .null
        let subtype = request["subtype"]?.stringValue ?? ""
        guard subtype == "can_use_tool" else { return .unsupportedControlRequest(requestID: id, subtype: subtype) }
        return .permissionRequest(
            ClaudePermissionRequest(
                requestID: id, toolName: request["tool_name"]?.stringValue ?? "", input: request["input"] ?? .object(JSONObject()),
                description: request["description"]?.stringValue, blockedPath: request["blocked_path"]?.stringValue,
                toolUseID: request["tool_use_id"]?.stringValue,
                suggestions: request["permission_suggestions"]?.arrayValue ?? [],
                requiresUserInteraction: request["requires_user_interaction"]?.boolValue == true))
    }

    private static func system(_ message: JSONValue) -> [ClaudeEvent] {
        switch message["subtype"]?.stringValue {
        case "init":
            return [
                .sessionStarted(
                    ClaudeSessionInfo(
                        id: message["session_id"]?.stringValue ?? "", model: message["model"]?.stringValue ?? "",
                        tools: message["tools"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                        directory: message["cwd"]?.stringValue ?? "", permissionMode: message["permissionMode"]?.stringValue ?? "",
                        claudeCodeVersion: message["claude_code_version"]?.stringValue))
            ]
        case "api_retry":
            return [
                .apiRetry(
                    attempt: message["attempt"]?.intValue ?? 0, maxRetries: message["max_retries"]?.intValue ?? 0,
                    status: message["error_status"]?.intValue, error: message["error"]?.stringValue ?? "")
            ]
        default:
            return []
        }
    }

    private mutating func streamEvent(_ event: JSONValue) -> [ClaudeEvent] {
        switch event["type"]?.stringValue {
        case "message_start":
            pendingUsage = Self.usage(event["message"]?["usage"])
            return []
        case "content_block_delta":
            let delta = event["delta"] ?? .null
            switch delta["type"]?.stringValue {
            case "text_delta": return [.textDelta(delta["text"]?.stringValue ?? "")]
            case "thinking_delta": return [.thinkingDelta(delta["thinking"]?.stringValue ?? "")]
            default: return []
            }
        case "message_delta":
            var usage = pendingUsage
            if let output = event["usage"]?["output_tokens"]?.intValue { usage.outputTokens = output }
            return [.usage(usage)]
        default:
            return []
        }
    }

    private static func assistant(_ message: JSONValue) -> [ClaudeEvent] {
        (message["content"]?.arrayValue ?? []).compactMap { block in
            switch block["type"]?.stringValue {
            case "text": return .text(block["text"]?.stringValue ?? "")
            case "thinking": return .thinking(block["thinking"]?.stringValue ?? "")
            case "tool_use":
                return .toolCall(
                    ClaudeToolCall(
                        id: block["id"]?.stringValue ?? "", name: block["name"]?.stringValue ?? "",
                        input: block["input"] ?? .object(JSONObject())))
            default: return nil
            }
        }
    }

    private static func toolResults(_ message: JSONValue) -> [ClaudeEvent] {
        (message["content"]?.arrayValue ?? []).compactMap { block in
            guard block["type"]?.stringValue == "tool_result" else { return nil }
            return .toolResult(
                ClaudeToolResult(
                    toolUseID: block["tool_use_id"]?.stringValue ?? "",
                    content: text(of: block["content"]), isError: block["is_error"]?.boolValue ?? false))
        }
    }

    /// A tool result's content: a string, or blocks whose text parts are joined.
    private static func text(of content: JSONValue?) -> String {
        if let text = content?.stringValue { return text }
        return (content?.arrayValue ?? []).map { part in
            part["text"]?.stringValue ?? "[\(part["type"]?.stringValue ?? "part")]"
        }.joined(separator: "\n")
    }

    private static func result(_ message: JSONValue) -> [ClaudeEvent] {
        let isError = message["is_error"]?.boolValue ?? false
        let subtype = message["subtype"]?.stringValue ?? ""
        let terminal = message["terminal_reason"]?.stringValue ?? ""
        let text =
            message["result"]?.stringValue
            ?? message["errors"]?.arrayValue?.compactMap(\.stringValue).joined(separator: "; ") ?? ""
        let interrupted = terminal.hasPrefix("aborted")
        let result = ClaudeTurnResult(
            sessionID: message["session_id"]?.stringValue ?? "", text: text, isError: isError, wasInterrupted: interrupted,
            subtype: subtype, duration: .milliseconds(message["duration_ms"]?.intValue ?? 0),
            apiDuration: .milliseconds(message["duration_api_ms"]?.intValue ?? 0),
            costUSD: message["total_cost_usd"]?.numberValue ?? 0, turns: message["num_turns"]?.intValue ?? 0,
            usage: usage(message["usage"]),
            deniedTools: message["permission_denials"]?.arrayValue?.compactMap { $0["tool_name"]?.stringValue } ?? [],
            turnCostUSD: perModel(message["model_usage_since_last_result"]).map { models in
                models.reduce(0) { $0 + ($1["costUSD"]?.numberValue ?? 0) }
            },
            sessionUsage: perModel(message["modelUsage"]).map { models in models.reduce(TokenUsage()) { $0 + modelUsage($1) } })
        guard isError, !interrupted else { return [.result(result)] }
        return [.error(failure(of: message, text: text, subtype: subtype, terminal: terminal)), .result(result)]
    }

    /// Sorts a failed turn: not logged in, an API error, or something else.
    private static func failure(of message: JSONValue, text: String, subtype: String, terminal: String) -> ClaudeConversationError {
        let status = message["api_error_status"]?.intValue
        if status == nil, text.localizedCaseInsensitiveContains("not logged in") || text.contains("/login") {
            return .notLoggedIn(message: text)
        }
        if status != nil || terminal == "api_error" {
            return .apiError(status: status, type: message["api_error_type"]?.stringValue, message: text)
        }
        return .turnFailed(subtype: subtype, message: text)
    }

    /// The entries of an object keyed by model name (`modelUsage`); nil when it is not there.
    private static func perModel(_ value: JSONValue?) -> [JSONValue]? {
        guard case .object(let models)? = value else { return nil }
        return models.members.map(\.value)
    }

    /// One model's entry of a result's `modelUsage` (camel-case counts).
    private static func modelUsage(_ value: JSONValue) -> TokenUsage {
        TokenUsage(
            inputTokens: value["inputTokens"]?.intValue ?? 0, outputTokens: value["outputTokens"]?.intValue ?? 0,
            cacheCreationInputTokens: value["cacheCreationInputTokens"]?.intValue ?? 0,
            cacheReadInputTokens: value["cacheReadInputTokens"]?.intValue ?? 0)
    }

    private static func usage(_ value: JSONValue?) -> TokenUsage {
        TokenUsage(
            inputTokens: value?["input_tokens"]?.intValue ?? 0, outputTokens: value?["output_tokens"]?.intValue ?? 0,
            cacheCreationInputTokens: value?["cache_creation_input_tokens"]?.intValue ?? 0,
            cacheReadInputTokens: value?["cache_read_input_tokens"]?.intValue ?? 0)
    }
}
