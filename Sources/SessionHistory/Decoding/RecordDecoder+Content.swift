/// Decoding `message`, content blocks and the small nested objects records carry.
extension RecordDecoder {
    mutating func decodeMessage(into message: inout MessageFields) throws(JSONError) {
        if scanner.peek() == 0x22 {
            // Some writers store the message as its bare text.
            message.contentIsString = true
            message.content = try decodeContent()
            return
        }
        guard scanner.atObject() else { return try scanner.skipValue() }
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, "content") {
                message.contentIsString = scanner.peek() == 0x22
                message.content = try decodeContent()
            } else if scanner.matches(key, "id") {
                message.id = try readSharedString(.message)
            } else if scanner.matches(key, "model") {
                message.model = try readSharedString(.model)
            } else if scanner.matches(key, "stop_reason") {
                message.stopReason = try scanner.readString()
            } else if scanner.matches(key, "usage") {
                message.usage = try decodeUsage()
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// A `content` value: a string becomes one text block, an array its blocks, else nothing.
    mutating func decodeContent() throws(JSONError) -> [ContentBlock] {
        switch scanner.peek() {
        case 0x22:
            return [.text(try scanner.string(scanner.scanString()))]
        case 0x5B:
            try scanner.enter(0x5B)
            var blocks: [ContentBlock] = []
            var cursor = ContainerCursor()
            while try scanner.nextElement(&cursor) {
                if let block = try decodeBlock() { blocks.append(block) }
            }
            return blocks
        default:
            try scanner.skipValue()
            return []
        }
    }

    /// A string, or the text blocks of an array joined by newlines (top-level `content`).
    mutating func readTextOrBlocks() throws(JSONError) -> String? {
        guard scanner.atArray() else { return try scanner.readString() }
        return try decodeContent().compactMap(\.text).joined(separator: "\n")
    }

    private mutating func decodeBlock() throws(JSONError) -> ContentBlock? {
        // Other writers give content as an array of bare strings: each is a text block.
        if scanner.peek() == 0x22 { return .text(try scanner.string(scanner.scanString())) }
        guard scanner.atObject() else {
            try scanner.skipValue()
            return nil
        }
        let start = scanner.pos
        var fields = BlockFields()
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            try decodeBlockMember(key, into: &fields)
        }
        return BlockAssembler.block(from: fields, raw: raw(start..<scanner.pos))
    }

    private mutating func decodeBlockMember(_ key: StringToken, into fields: inout BlockFields) throws(JSONError) {
        if scanner.matches(key, "type") {
            fields.type = try scanner.readString()
        } else if scanner.matches(key, "text") {
            fields.text = try scanner.readString()
        } else if scanner.matches(key, "id") {
            fields.id = try readSharedString(.tool)
        } else if scanner.matches(key, "name") {
            fields.name = try scanner.readString()
        } else if scanner.matches(key, "input") {
            fields.input = raw(try scanner.captureValue())
        } else if scanner.matches(key, "tool_use_id") {
            fields.toolUseId = try readSharedString(.tool)
        } else if scanner.matches(key, "content") {
            fields.content = try decodeContent()
        } else if scanner.matches(key, "is_error") {
            fields.isError = try scanner.readBool() ?? false
        } else if scanner.matches(key, "thinking") {
            fields.thinking = try scanner.readString()
        } else if scanner.matches(key, "signature") {
            fields.isSigned = scanner.peek() == 0x22
            try scanner.skipValue()
        } else if scanner.matches(key, "data") {
            fields.data = raw(try scanner.captureValue())
        } else if scanner.matches(key, "source") {
            fields.source = try decodeSource()
        } else {
            try scanner.skipValue()
        }
    }

    private mutating func decodeSource() throws(JSONError) -> MediaBlock? {
        guard scanner.atObject() else {
            try scanner.skipValue()
            return nil
        }
        var media = MediaBlock(sourceType: nil, mediaType: nil, data: nil, url: nil)
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, "type") {
                media.sourceType = try scanner.readString()
            } else if scanner.matches(key, "media_type") {
                media.mediaType = try scanner.readString()
            } else if scanner.matches(key, "data") {
                media.data = raw(try scanner.captureValue())
            } else if scanner.matches(key, "url") {
                media.url = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        return media
    }

    private mutating func decodeUsage() throws(JSONError) -> TokenUsage? {
        guard scanner.atObject() else {
            try scanner.skipValue()
            return nil
        }
        var usage = TokenUsage()
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, "input_tokens") {
                usage.inputTokens = try scanner.readClampedInt() ?? 0
            } else if scanner.matches(key, "output_tokens") {
                usage.outputTokens = try scanner.readClampedInt() ?? 0
            } else if scanner.matches(key, "cache_creation_input_tokens") {
                usage.cacheCreationInputTokens = try scanner.readClampedInt() ?? 0
            } else if scanner.matches(key, "cache_read_input_tokens") {
                usage.cacheReadInputTokens = try scanner.readClampedInt() ?? 0
            } else {
                try scanner.skipValue()
            }
        }
        return usage
    }

    mutating func decodeCompaction() throws(JSONError) -> CompactionInfo? {
        guard scanner.atObject() else {
            try scanner.skipValue()
            return nil
        }
        var info = CompactionInfo(trigger: nil, preTokens: nil)
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, "trigger") {
                info.trigger = try scanner.readString()
            } else if scanner.matches(key, "preTokens") {
                info.preTokens = try scanner.readInt()
            } else if scanner.matches(key, "preservedSegment") {
                info.preservedSegment = try decodePreservedSegment()
            } else {
                try scanner.skipValue()
            }
        }
        return info
    }

    private mutating func decodePreservedSegment() throws(JSONError) -> PreservedSegment? {
        guard scanner.atObject() else {
            try scanner.skipValue()
            return nil
        }
        var head: String?, anchor: String?, tail: String?
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, "headUuid") {
                head = try scanner.readString()
            } else if scanner.matches(key, "anchorUuid") {
                anchor = try scanner.readString()
            } else if scanner.matches(key, "tailUuid") {
                tail = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        guard let head, let anchor, let tail else { return nil }
        return PreservedSegment(headUuid: head, anchorUuid: anchor, tailUuid: tail)
    }

    /// Keeps a value as raw JSON and, when it is an object, reads its string member `name`.
    mutating func captureObject(reading name: StaticString) throws(JSONError) -> (RawJSON, String?) {
        let (raw, _, value) = try captureTypedObject(reading: name)
        return (raw, value)
    }

    /// Keeps a value as raw JSON and, when it is an object, reads its `type` and member `name`.
    mutating func captureTypedObject(reading name: StaticString) throws(JSONError) -> (RawJSON, String?, String?) {
        scanner.skipWhitespace()
        let start = scanner.pos
        guard scanner.atObject() else { return (raw(try scanner.captureValue()), nil, nil) }
        var type: String?
        var value: String?
        try scanner.enter(0x7B)
        var cursor = ContainerCursor()
        while let key = try scanner.nextKey(&cursor) {
            if scanner.matches(key, name) {
                value = try scanner.readString()
            } else if scanner.matches(key, "type") {
                type = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        return (raw(start..<scanner.pos), type, value)
    }
}
