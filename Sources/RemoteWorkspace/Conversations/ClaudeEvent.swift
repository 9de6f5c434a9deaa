import SessionHistory

/// Something that happened in a turn of a ``ClaudeConversation``, in the order Claude Code reported it.
public enum ClaudeEvent: Sendable, Equatable {
    /// The turn started in this session (sent at the start of every turn).
    case sessionStarted(ClaudeSessionInfo)
    /// A piece of the answer's text as it streams.
    case textDelta(String)
    /// A piece of the model's thinking as it streams.
    case thinkingDelta(String)
    /// A complete text block of the answer (after its deltas).
    case text(String)
    /// A complete thinking block (after its deltas).
    case thinking(String)
    /// The model calls a tool.
    case toolCall(ClaudeToolCall)
    /// A tool's result (or the error that stopped it, such as a denied permission).
    case toolResult(ClaudeToolResult)
    /// Claude Code asks whether a tool may run: answer with ``ClaudeConversation/respond(to:with:)``.
    case permissionRequest(ClaudePermissionRequest)
    /// The model asks the user questions with options (Claude Code's AskUserQuestion tool), instead
    /// of a ``permissionRequest(_:)`` for it: answer with ``ClaudeConversation/respond(to:with:)``,
    /// passing ``ClaudeUserQuestions/request`` and ``ClaudeUserQuestions/answer(_:)``.
    case userQuestion(ClaudeUserQuestions)
    /// Claude Code withdrew the permission question with this request id: a PermissionRequest hook
    /// (such as the one `rws watch` answers through) decided first, or the turn was interrupted.
    /// Answering it is no longer needed; a prompt showing it should be closed.
    case permissionCancelled(requestID: String)
    /// A detached conversation lost its link to the box; Claude Code goes on there and rws
    /// attaches again when the connection is back (then ``reattached`` follows).
    case linkLost(reason: String)
    /// A detached conversation attached again after ``linkLost(reason:)``: what Claude Code did
    /// meanwhile follows, each event once.
    case reattached
    /// Token usage of one model response.
    case usage(TokenUsage)
    /// Claude Code retries a failed API request.
    case apiRetry(attempt: Int, maxRetries: Int, status: Int?, error: String)
    /// The turn failed; a ``result(_:)`` follows.
    case error(ClaudeConversationError)
    /// The turn ended: the last event of a turn.
    case result(ClaudeTurnResult)
}

/// The session a turn runs in, from Claude Code's `system`/`init` message.
public struct ClaudeSessionInfo: Sendable, Equatable {
    /// The session id: the name of the session file under `~/.claude/projects/<folder>/`.
    public var id: String
    /// The model in use.
    public var model: String
    /// The tools the model may call.
    public var tools: [String]
    /// The directory Claude Code runs in.
    public var directory: String
    /// The permission mode in force.
    public var permissionMode: String
    /// Claude Code's version.
    public var claudeCodeVersion: String?
}

/// A tool call by the model.
public struct ClaudeToolCall: Sendable, Equatable {
    /// The tool use id, which the tool's result names.
    public var id: String
    /// The tool, such as `Bash` or `Edit`.
    public var name: String
    /// The tool's input as the model wrote it.
    public var input: JSONValue
}

/// The result of a tool call.
public struct ClaudeToolResult: Sendable, Equatable {
    /// The tool use id of the call.
    public var toolUseID: String
    /// The result's text (text parts joined; other parts named in brackets).
    public var content: String
    /// Whether the tool failed or was refused.
    public var isError: Bool
}

/// A question from Claude Code: may this tool run with this input?
public struct ClaudePermissionRequest: Sendable, Equatable {
    /// The control request id the answer must carry.
    public var requestID: String
    /// The tool.
    public var toolName: String
    /// The tool's input.
    public var input: JSONValue
    /// Claude Code's short description of the call, when it gave one.
    public var description: String?
    /// The path outside the allowed directories that made Claude Code ask, when there is one.
    public var blockedPath: String?
    /// The tool use id of the call.
    public var toolUseID: String?
    /// The permission updates Claude Code suggests with the call (`permission_suggestions`), as
    /// it sent them; empty when it offers none. ``grants`` turns them into choices.
    public var suggestions: [JSONValue] = []
    /// Whether the answer has to come from a person looking at what the tool shows, never from a
    /// one-key or standing approval (`requires_user_interaction`: tools whose question is their own
    /// interface, such as AskUserQuestion): "always" is not to be offered.
    public var requiresUserInteraction = false

    /// What an answer may grant beyond this call, the narrowest first, each on its own
    /// (``ClaudePermissionGrant/choices(toolName:input:suggestions:)``); none for a call whose
    /// answer must come from a person each time.
    public var grants: [ClaudePermissionGrant] {
        requiresUserInteraction ? [] : ClaudePermissionGrant.choices(toolName: toolName, input: input, suggestions: suggestions)
    }
}

/// How a turn ended, from Claude Code's `result` message.
public struct ClaudeTurnResult: Sendable, Equatable {
    /// The session id.
    public var sessionID: String
    /// The final answer text (or the error text when ``isError``).
    public var text: String
    /// Whether the turn ended in an error (an API error, an interruption…).
    public var isError: Bool
    /// Whether the turn was interrupted.
    public var wasInterrupted: Bool
    /// Claude Code's result subtype: `success`, `error_during_execution`, `error_max_turns`…
    public var subtype: String
    /// Wall time of the turn.
    public var duration: Duration
    /// Time spent waiting for the API.
    public var apiDuration: Duration
    /// Cost of the session so far (earlier turns and runs of a resumed session included), in US
    /// dollars, as Claude Code computes it (`total_cost_usd`).
    public var costUSD: Double
    /// Model requests in the turn.
    public var turns: Int
    /// Token usage of the turn.
    public var usage: TokenUsage
    /// Tools refused in the turn.
    public var deniedTools: [String]
    /// Cost of this turn alone, in US dollars (`model_usage_since_last_result`); nil when Claude Code does not say.
    public var turnCostUSD: Double? = nil
    /// Token usage of the whole session so far, every model added (`modelUsage`); nil when Claude Code does not say.
    public var sessionUsage: TokenUsage? = nil
}
