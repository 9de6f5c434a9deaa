import SessionHistory

/// The answer to a ``ClaudePermissionRequest``.
public enum ClaudePermissionDecision: Sendable, Equatable {
    /// Run the tool this time.
    case allow
    /// Run the tool, and every later call of the same tool in this session without asking.
    case allowAlways
    /// Do not run the tool; the model is told `message`.
    case deny(message: String)
    /// Do not run the tool and end the turn (the user pressed Ctrl+C at the question); the model is told `message`.
    case denyAndInterrupt(message: String)

    /// The `response` of the `can_use_tool` control response.
    func response(to request: ClaudePermissionRequest) -> JSONValue {
        switch self {
        case .allow:
            return .object(JSONObject([JSONMember("behavior", .string("allow")), JSONMember("updatedInput", request.input)]))
        case .allowAlways:
            let rule = JSONValue.object(JSONObject([JSONMember("toolName", .string(request.toolName))]))
            let update = JSONValue.object(
                JSONObject([
                    JSONMember("type", .string("addRules")), JSONMember("rules", .array([rule])),
                    JSONMember("behavior", .string("allow")), JSONMember("destination", .string("session")),
                ]))
            return .object(
                JSONObject([
                    JSONMember("behavior", .string("allow")), JSONMember("updatedInput", request.input),
                    JSONMember("updatedPermissions", .array([update])),
                ]))
        case .deny(let message):
            return .object(JSONObject([JSONMember("behavior", .string("deny")), JSONMember("message", .string(message))]))
        case .denyAndInterrupt(let message):
            return .object(
                JSONObject([
                    JSONMember("behavior", .string("deny")), JSONMember("message", .string(message)),
                    JSONMember("interrupt", .bool(true)),
                ]))
        }
    }
}
