import SessionHistory

/// The lines rws writes to Claude Code's stdin (stream-json input).
enum ClaudeOutgoing {
    /// A user message carrying `content`.
    static func userMessage(_ content: JSONValue) -> String {
        line(
            .object(
                JSONObject([
                    JSONMember("type", .string("user")),
                    JSONMember("message", .object(JSONObject([JSONMember("role", .string("user")), JSONMember("content", content)]))),
                    JSONMember("parent_tool_use_id", .null),
                    JSONMember("session_id", .string("")),
                ])))
    }

    /// A control request from rws: `initialize`, `interrupt`, `set_permission_mode`, `set_model`.
    static func controlRequest(id: String, subtype: String, fields: [JSONMember] = []) -> String {
        line(
            .object(
                JSONObject([
                    JSONMember("type", .string("control_request")),
                    JSONMember("request_id", .string(id)),
                    JSONMember("request", .object(JSONObject([JSONMember("subtype", .string(subtype))] + fields))),
                ])))
    }

    /// A successful answer to Claude Code's control request `id`.
    static func controlSuccess(id: String, response: JSONValue) -> String {
        controlResponse(id: id, subtype: "success", JSONMember("response", response))
    }

    /// An error answer to Claude Code's control request `id`.
    static func controlError(id: String, message: String) -> String {
        controlResponse(id: id, subtype: "error", JSONMember("error", .string(message)))
    }

    private static func controlResponse(id: String, subtype: String, _ payload: JSONMember) -> String {
        line(
            .object(
                JSONObject([
                    JSONMember("type", .string("control_response")),
                    JSONMember(
                        "response",
                        .object(
                            JSONObject([
                                JSONMember("subtype", .string(subtype)), JSONMember("request_id", .string(id)), payload,
                            ]))),
                ])))
    }

    private static func line(_ value: JSONValue) -> String {
        JSONWriter.string(from: value) + "\n"
    }
}
