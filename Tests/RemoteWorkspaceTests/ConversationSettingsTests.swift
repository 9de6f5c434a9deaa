import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// Model and permission mode, chosen at start and changed during a conversation.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ConversationSettingsTests {
    @Test func theChosenModelIsUsedAndAModeChangeAppliesToTheNextTurn() async throws {
        let box = try TestBox(modelInSettings: false) { project in
            [
                Turn.text("Asking mode."),
                ["blocks": [["type": "tool_use", "name": "Write", "input": ["file_path": project + "/edit.txt", "content": "edited\n"]]]],
                Turn.text("Written."),
            ]
        }
        defer { box.remove() }
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(
                on: ssh, options: box.options(mode: .plan, model: "claude-rws-test-model"))
            let first = try await collect(try await conversation.send("Hello"), in: conversation)
            #expect(first.session?.model == "claude-rws-test-model")
            #expect(first.session?.permissionMode == "plan")
            #expect(box.model.conversationRequests().last?["model"] as? String == "claude-rws-test-model")
            try await conversation.setPermissionMode(.acceptEdits)
            let second = try await collect(try await conversation.send("Write edit.txt"), in: conversation)
            #expect(second.session?.permissionMode == "acceptEdits")
            #expect(second.permissionRequests.isEmpty)
            #expect(second.toolResults.map(\.isError) == [false])
            #expect(try String(contentsOfFile: box.project + "/edit.txt", encoding: .utf8) == "edited\n")
            await conversation.stop()
        }
    }

    @Test func hostileValuesReachClaudeCodeAsSingleArguments() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text("Quoted.")])
        defer { box.remove() }
        let odd = box.project + "/it's $(touch pwned) `x`"
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(
                on: ssh, options: box.options(directory: .some(odd), model: "--version; touch pwned"))
            let events = try await collect(try await conversation.send("Hi"), in: conversation)
            #expect(events.session?.directory == odd)
            #expect(events.session?.model == "--version; touch pwned")
            await conversation.stop()
        }
        #expect(!FileManager.default.fileExists(atPath: box.project + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: odd + "/pwned"))
    }
}
