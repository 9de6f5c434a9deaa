extension Conversation {
    /// The conversation as JSON: entries with their blocks, each tool call carrying its result,
    /// usage totals, and subagents. Image data is replaced by its size unless asked for.
    public func json(options: RenderOptions = RenderOptions(), pretty: Bool = true) -> String {
        JSONWriter.string(from: JSONExporter(options: options).value(of: self), pretty: pretty)
    }
}

/// Builds the JSON export as a ``JSONValue`` tree.
struct JSONExporter {
    let options: RenderOptions

    func value(of conversation: Conversation) -> JSONValue {
        var members: [JSONMember] = []
        if let title = options.title { members.append(JSONMember("title", .string(title))) }
        members.append(JSONMember("sessionId", string(conversation.sessionId)))
        if let agentId = conversation.agentId { members.append(JSONMember("agentId", .string(agentId))) }
        members.append(JSONMember("usage", usage(conversation.usage)))
        members.append(JSONMember("entries", .array(conversation.entries.map { entry(of: $0) })))
        if !conversation.unknownRecords.isEmpty {
            // As written: rws does not know these types, so it neither drops nor interprets them.
            let raw = conversation.unknownRecords.map { $0.value ?? .string($0.text) }
            members.append(JSONMember("unknownRecords", .array(raw)))
        }
        if !options.lineIssues.isEmpty {
            members.append(JSONMember("lineIssues", .array(options.lineIssues.map { lineIssue($0) })))
        }
        if options.includeSubagents {
            members.append(JSONMember("subagents", .array(conversation.subagents.map { subagent($0) })))
        }
        return .object(JSONObject(members))
    }

    private func entry(of entry: ConversationEntry) -> JSONValue {
        switch entry {
        case .user(let turn):
            var fields: [(String, JSONValue)] = [
                ("type", .string("user")), ("kind", .string(kindName(turn.kind))), ("uuid", string(turn.uuid)),
                ("timestamp", string(turn.timestamp)),
            ]
            if let mode = turn.permissionMode { fields.append(("permissionMode", .string(mode))) }
            fields.append(("content", .array(turn.content.compactMap { block($0, results: [:]) })))
            return object(fields)
        case .assistant(let turn):
            return object([
                ("type", .string("assistant")), ("messageId", string(turn.messageId)), ("model", string(turn.model)),
                ("timestamp", string(turn.timestamp)), ("usage", turn.usage.map(tokens) ?? .null),
                ("content", .array(turn.content.compactMap { block($0, results: turn.toolResults) })),
            ])
        case .compaction(let marker):
            return object([
                ("type", .string("compaction")), ("uuid", string(marker.uuid)), ("timestamp", string(marker.timestamp)),
                ("trigger", string(marker.trigger)), ("preTokens", marker.preTokens.map { .number(Double($0)) } ?? .null),
                ("micro", .bool(marker.isMicro)),
            ])
        }
    }

    private func block(_ block: ContentBlock, results: [String: ToolOutcome]) -> JSONValue? {
        switch block {
        case .text(let text):
            return object([("type", .string("text")), ("text", .string(text))])
        case .thinking(let thinking):
            return options.includeThinking ? object([("type", .string("thinking")), ("thinking", .string(thinking.thinking))]) : nil
        case .redactedThinking:
            return options.includeThinking ? object([("type", .string("redacted_thinking"))]) : nil
        case .toolUse(let call):
            var fields: [(String, JSONValue)] = [
                ("type", .string("tool_use")), ("id", .string(call.id)), ("name", .string(call.name)),
                ("input", call.input.value ?? .string(call.input.text)),
            ]
            if let outcome = results[call.id] { fields.append(("result", result(outcome.result))) }
            return object(fields)
        case .toolResult(let toolResult):
            return result(toolResult)
        case .image(let media):
            return self.media(media, type: "image")
        case .document(let media):
            return self.media(media, type: "document")
        case .unknown(let unknown):
            return unknown.raw.value ?? .string(unknown.raw.text)
        }
    }

    private func result(_ result: ToolResultBlock) -> JSONValue {
        guard options.includeToolResults else { return object([("isError", .bool(result.isError))]) }
        let content = result.content.compactMap { block($0, results: [:]) }
        return object([("toolUseId", .string(result.toolUseId)), ("isError", .bool(result.isError)), ("content", .array(content))])
    }

    private func media(_ media: MediaBlock, type: String) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string(type)), ("mediaType", string(media.mediaType))]
        if options.includeImageData, let data = media.data?.value {
            fields.append(("data", data))
        } else {
            fields.append(("approximateBytes", .number(Double(media.approximateByteCount))))
        }
        return object(fields)
    }

    private func subagent(_ subagent: Subagent) -> JSONValue {
        object([
            ("id", .string(subagent.id)), ("toolUseId", string(subagent.toolUseId)),
            ("agentType", string(subagent.metadata?.agentType)), ("conversation", value(of: subagent.conversation)),
        ])
    }

    private func usage(_ report: UsageReport) -> JSONValue {
        let models = report.byModel.keys.sorted().map { JSONMember($0, tokens(report.byModel[$0] ?? TokenUsage())) }
        return object([
            ("responses", .number(Double(report.responseCount))), ("total", tokens(report.total)),
            ("byModel", .object(JSONObject(models))),
        ])
    }

    private func tokens(_ usage: TokenUsage) -> JSONValue {
        object([
            ("input", .number(Double(usage.inputTokens))), ("output", .number(Double(usage.outputTokens))),
            ("cacheCreation", .number(Double(usage.cacheCreationInputTokens))),
            ("cacheRead", .number(Double(usage.cacheReadInputTokens))),
        ])
    }

    private func kindName(_ kind: UserTurnKind) -> String {
        switch kind {
        case .prompt: return "prompt"
        case .command: return "command"
        case .commandOutput: return "commandOutput"
        case .interruption: return "interruption"
        case .compactSummary: return "compactSummary"
        }
    }

    /// `{"line":7,"byteOffset":1200,"tornLastLine":true,"reason":"line 7 (torn last line): …"}`.
    private func lineIssue(_ issue: LineIssue) -> JSONValue {
        let torn: Bool
        if case .tornLastLine = issue.reason { torn = true } else { torn = false }
        return object([
            ("line", .number(Double(issue.location.line))), ("byteOffset", .number(Double(issue.location.byteOffset))),
            ("tornLastLine", .bool(torn)), ("reason", .string(issue.description)),
        ])
    }

    private func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    private func object(_ fields: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(fields.map { JSONMember($0.0, $0.1) }))
    }
}
