/// One element of a message's `content` array (a string `content` becomes one ``text(_:)`` block).
public enum ContentBlock: Sendable, Equatable {
    /// Plain text.
    case text(String)
    /// The model's visible reasoning.
    case thinking(ThinkingBlock)
    /// Reasoning the API returned encrypted.
    case redactedThinking(RedactedThinkingBlock)
    /// A tool call made by the model.
    case toolUse(ToolUseBlock)
    /// The result of a tool call, sent back in a `user` record.
    case toolResult(ToolResultBlock)
    /// An image (pasted, or read by a tool).
    case image(MediaBlock)
    /// A document such as a PDF.
    case document(MediaBlock)
    /// A block type this module does not model (e.g. `tool_reference`, `server_tool_use`), kept as written.
    case unknown(UnknownBlock)

    /// The text of a ``text(_:)`` block, else `nil`.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The tool call, for a ``toolUse(_:)`` block.
    public var toolUse: ToolUseBlock? {
        if case .toolUse(let block) = self { return block }
        return nil
    }

    /// The tool result, for a ``toolResult(_:)`` block.
    public var toolResult: ToolResultBlock? {
        if case .toolResult(let block) = self { return block }
        return nil
    }
}

/// A `thinking` block.
public struct ThinkingBlock: Sendable, Equatable {
    /// The reasoning text.
    public var thinking: String
    /// Whether a `signature` was present (its value is not kept; it is opaque base64).
    public var isSigned: Bool

    /// Creates a thinking block.
    public init(thinking: String, isSigned: Bool) {
        self.thinking = thinking
        self.isSigned = isSigned
    }
}

/// A `redacted_thinking` block.
public struct RedactedThinkingBlock: Sendable, Equatable {
    /// The encrypted payload as written (a JSON string), if any.
    public var data: RawJSON?

    /// Creates a redacted thinking block.
    public init(data: RawJSON?) {
        self.data = data
    }
}

/// A `tool_use` block.
public struct ToolUseBlock: Sendable, Equatable {
    /// The call id (`toolu_…`) that the result refers to.
    public var id: String
    /// The tool name (`Bash`, `Read`, `Task`/`Agent`, `mcp__server__tool`, …).
    public var name: String
    /// The call's arguments, as written.
    public var input: RawJSON

    /// Creates a tool call.
    public init(id: String, name: String, input: RawJSON) {
        self.id = id
        self.name = name
        self.input = input
    }
}

/// A `tool_result` block.
public struct ToolResultBlock: Sendable, Equatable {
    /// The id of the ``ToolUseBlock`` this answers.
    public var toolUseId: String
    /// The result: a string result becomes one text block; arrays may hold text, images, references.
    public var content: [ContentBlock]
    /// Whether the tool reported a failure (also set for user interruptions).
    public var isError: Bool

    /// Creates a tool result.
    public init(toolUseId: String, content: [ContentBlock], isError: Bool) {
        self.toolUseId = toolUseId
        self.content = content
        self.isError = isError
    }

    /// The text blocks joined by newlines.
    public var text: String { content.compactMap(\.text).joined(separator: "\n") }
}

/// An `image` or `document` block; the base64 payload stays undecoded until asked for.
public struct MediaBlock: Sendable, Equatable {
    /// `source.type`: `base64`, `url`, `file`, ….
    public var sourceType: String?
    /// `source.media_type`, e.g. `image/png`.
    public var mediaType: String?
    /// `source.data` as written (a JSON string of base64), if present.
    public var data: RawJSON?
    /// `source.url`, if present.
    public var url: String?

    /// Creates a media block.
    public init(sourceType: String?, mediaType: String?, data: RawJSON?, url: String?) {
        self.sourceType = sourceType
        self.mediaType = mediaType
        self.data = data
        self.url = url
    }

    /// The approximate decoded size in bytes (from the base64 length).
    public var approximateByteCount: Int { max(0, ((data?.bytes.count ?? 2) - 2) * 3 / 4) }
}

/// A block of a type this module does not model.
public struct UnknownBlock: Sendable, Equatable {
    /// Its `type`, if it had a string one.
    public var type: String?
    /// The whole block as written.
    public var raw: RawJSON

    /// Creates an unknown block.
    public init(type: String?, raw: RawJSON) {
        self.type = type
        self.raw = raw
    }
}
