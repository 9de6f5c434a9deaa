import SessionHistory

/// The answer to a ``ClaudePermissionRequest``.
public enum ClaudePermissionDecision: Sendable, Equatable {
    /// Run the tool this time.
    case allow
    /// Run the tool, and grant exactly `grants` (chosen from ``ClaudePermissionRequest/grants``):
    /// Claude Code then no longer asks for what they allow, and keeps them where they say. Empty,
    /// the same as ``allow``.
    case allowGranting([ClaudePermissionGrant])
    /// Run the tool with `input` instead of the one asked about: how the answers to AskUserQuestion
    /// go back (the question's input plus `"answers": {question: label}`, labels of a multi-select joined by ", ").
    case allowWithInput(JSONValue)
    /// Do not run the tool; the model is told `message`.
    case deny(message: String)
    /// Do not run the tool and end the turn (the user pressed Ctrl+C at the question); the model is told `message`.
    case denyAndInterrupt(message: String)

    /// The `response` of the `can_use_tool` control response.
    func response(to request: ClaudePermissionRequest) -> JSONValue {
        switch self {
        case .allow:
            return .object(JSONObject([JSONMember("behavior", .string("allow")), JSONMember("updatedInput", request.input)]))
        case .allowWithInput(let input):
            return .object(JSONObject([JSONMember("behavior", .string("allow")), JSONMember("updatedInput", input)]))
        case .allowGranting(let grants):
            // Only what was chosen, as Claude Code sent it (or as rws made it): Claude Code applies and keeps it.
            return .object(
                JSONObject([
                    JSONMember("behavior", .string("allow")), JSONMember("updatedInput", request.input),
                    JSONMember("updatedPermissions", .array(grants.map(\.update))),
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
