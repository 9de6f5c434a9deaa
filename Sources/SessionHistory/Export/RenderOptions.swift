/// Choices shared by the text, Markdown and JSON renderings of a conversation.
public struct RenderOptions: Sendable, Equatable {
    /// Include the model's thinking blocks.
    public var includeThinking: Bool
    /// Include tool results under their calls.
    public var includeToolResults: Bool
    /// Longest tool result shown, in lines; longer ones are folded with a note. `nil`: no limit.
    public var toolResultLineLimit: Int?
    /// Include subagent transcripts.
    public var includeSubagents: Bool
    /// JSON only: include base64 image data instead of a size placeholder.
    public var includeImageData: Bool
    /// A title to print at the top (e.g. ``SessionSummary/title``).
    public var title: String?
    /// Text and Markdown only: show control and escape characters from the session visibly
    /// (`TerminalText`), so printing the rendering cannot drive the terminal. Off for a raw
    /// export to a file.
    public var neutralizesControlCharacters: Bool
    /// JSON only: lines of the file that could not be decoded (a torn last line among them),
    /// listed under `lineIssues` when there are any.
    public var lineIssues: [LineIssue] = []

    /// Creates options; defaults suit reading on a terminal: no thinking, results folded at 20
    /// lines, control characters neutralised.
    public init(
        includeThinking: Bool = false, includeToolResults: Bool = true, toolResultLineLimit: Int? = 20,
        includeSubagents: Bool = true, includeImageData: Bool = false, title: String? = nil,
        neutralizesControlCharacters: Bool = true
    ) {
        self.includeThinking = includeThinking
        self.includeToolResults = includeToolResults
        self.toolResultLineLimit = toolResultLineLimit
        self.includeSubagents = includeSubagents
        self.includeImageData = includeImageData
        self.title = title
        self.neutralizesControlCharacters = neutralizesControlCharacters
    }

    /// These options for a session file: its title and line issues unless already given.
    package func forSession(title: String?, lineIssues: [LineIssue]) -> RenderOptions {
        var options = self
        options.title = options.title ?? title
        if options.lineIssues.isEmpty { options.lineIssues = lineIssues }
        return options
    }

    /// The finished text or Markdown rendering, neutralised unless asked not to.
    func finish(_ rendering: String) -> String {
        neutralizesControlCharacters ? TerminalText.neutralize(rendering) : rendering
    }
}

/// The renderings a conversation can be exported as.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Plain text for a terminal (``Conversation/plainText(options:)``).
    case text
    /// Markdown (``Conversation/markdown(options:)``).
    case markdown
    /// JSON (``Conversation/json(options:pretty:)``).
    case json
}

extension Conversation {
    /// The conversation rendered in `format`.
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions()) -> String {
        switch format {
        case .text: return plainText(options: options)
        case .markdown: return markdown(options: options)
        case .json: return json(options: options)
        }
    }

    /// The conversation rendered in `format`, handed to `write` a piece at a time as it is
    /// written (text and Markdown in pieces of about 64 KiB; JSON, one value, at the end).
    public func render(_ format: ExportFormat, options: RenderOptions = RenderOptions(), into write: (String) -> Void) {
        switch format {
        case .text: plainText(options: options, into: write)
        case .markdown: markdown(options: options, into: write)
        case .json: write(json(options: options))
        }
    }
}
