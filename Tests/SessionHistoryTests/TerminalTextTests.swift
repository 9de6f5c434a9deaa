import Testing

@testable import SessionHistory

/// Text from a session file never reaches the terminal as control sequences.
@Suite struct TerminalTextTests {
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}top\rhidden\u{9B}31mred\u{7F}\u{202E}txt"

    /// The bytes a terminal would act on: C0 controls but newline and tab, DEL, and C1 controls (UTF-8 C2 80–9F).
    private func controlBytes(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var found: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F { found.append(byte) }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { found.append(bytes[index + 1]) }
        }
        return found
    }

    @Test func controlAndEscapeCharactersAreShownVisibly() {
        let shown = TerminalText.neutralize(Self.hostile)

        #expect(shown == #"\e[2J\e]0;owned\x07top\rhidden\u009b31mred\x7f\u202etxt"#)
        #expect(controlBytes(shown).isEmpty)
    }

    @Test func multiLineTextKeepsNewlinesAndTabsAndOneLineTextShowsThem() {
        #expect(TerminalText.neutralize("a\n\tb") == "a\n\tb")
        #expect(TerminalText.neutralize("a\n\tb", keepingLineBreaks: false) == #"a\n\tb"#)
        #expect(TerminalText.neutralize("plain ✓ text") == "plain ✓ text")
    }

    @Test func neutralisingTwiceChangesNothingMore() {
        let once = TerminalText.neutralize(Self.hostile)
        #expect(TerminalText.neutralize(once) == once)
    }

    private func hostileConversation() -> (Conversation, RenderOptions) {
        let escaped = #"\u001b[2J\u001b]0;owned\u0007top\rhidden\u009b31mred"#
        let bytes = jsonl(
            #"{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"run it \#(escaped)"}}"#,
            #"{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","#
                + #""name":"Bash","input":{"command":"cat \#(escaped)"}}]}}"#,
            #"{"type":"user","uuid":"u2","parentUuid":"a1","message":{"role":"user","content":[{"type":"tool_result","#
                + #""tool_use_id":"t1","content":"line one\n\tline two \#(escaped)"}]}}"#
        )
        var options = RenderOptions()
        options.title = "Title \u{1B}]0;pwned\u{07}\u{9B}1m"
        return (ConversationBuilder.build(records: SessionParser.parse(bytes).records), options)
    }

    @Test func textAndMarkdownRenderingsCarryNoControlBytes() {
        let (conversation, options) = hostileConversation()

        for format in [ExportFormat.text, .markdown] {
            let rendered = conversation.render(format, options: options)
            #expect(controlBytes(rendered).isEmpty, "\(format)")
            #expect(rendered.contains(#"Title \e]0;pwned\x07\u009b1m"#), "\(format)")
            #expect(rendered.contains(#"\e[2J\e]0;owned\x07top\rhidden\u009b31mred"#), "\(format)")
        }
        #expect(conversation.plainText(options: options).contains("line one\n"))
        #expect(conversation.plainText(options: options).contains("\tline two"))
    }

    @Test func aRawRenderingAndJSONKeepTheSessionsCharacters() throws {
        let (conversation, options) = hostileConversation()
        var raw = options
        raw.neutralizesControlCharacters = false

        #expect(conversation.render(.markdown, options: raw).contains("\u{1B}[2J"))
        let json = conversation.render(.json, options: options)
        #expect(controlBytes(json).isEmpty)
        #expect(json.contains(#"\u001b[2J"#) && json.contains(#"\u009b31m"#))
        #expect(try JSONValue(parsing: json) != .null)
    }
}
