import Foundation
import Testing

@testable import SessionHistory

@Suite struct SubagentTests {
    private func source(_ file: String, agentId: String, metadata: SubagentMetadata? = nil) throws -> SubagentSource {
        SubagentSource(
            agentId: agentId, fileName: "agent-\(agentId).jsonl", records: SessionParser.parse(try TestFiles.corpusFile(file)).records,
            metadata: metadata)
    }

    @Test func subagentFileIsLinkedThroughTheToolResultsAgentId() throws {
        let main = SessionParser.parse(try TestFiles.corpusFile("daaain__claude-code-log__29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl"))
            .records
        let agent = try source(
            "daaain__claude-code-log__29ccd257-68b1-427f-ae5f-6524b7cb6f20__subagents__agent-a2271d1.jsonl", agentId: "a2271d1")

        let conversation = ConversationBuilder.build(records: main, subagentFiles: [agent])

        let call = conversation.toolCalls.first
        #expect(call?.name == "Task")
        #expect(conversation.subagents.first?.toolUseId == call?.id)
        #expect(conversation.subagent(forToolUse: call?.id ?? "")?.conversation.messageCount == 11)
    }

    @Test func twoZeroAgentFileIsLinkedByItsPrompt() throws {
        let main = SessionParser.parse(try TestFiles.corpusFile("daaain__claude-code-log__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl"))
            .records
        let agent = try source("daaain__claude-code-log__agent-ea02459f.jsonl", agentId: "ea02459f")

        let conversation = ConversationBuilder.build(records: main, subagentFiles: [agent])

        let linked = try #require(conversation.subagents.first?.toolUseId)
        let call = try #require(conversation.toolCalls.first { $0.id == linked })
        #expect(call.name == "Task")
        #expect(call.input.value?["prompt"]?.stringValue?.hasPrefix("I need to understand the current project structure") == true)
    }

    @Test func sidecarMetadataIsRead() throws {
        let bytes = try TestFiles.corpusFile(
            "daaain__claude-code-log__ef958aa1-0e93-49f0-bb71-150f63befcd1__subagents__agent-a4ca7529859c158c2.meta.json")

        let metadata = try #require(SubagentMetadata(json: bytes))

        #expect(metadata.agentType != nil)
        #expect(metadata.worktreePath != nil)
    }

    @Test func inlineSidechainsBecomeSubagentsLinkedToTheirTaskCalls() throws {
        let records = SessionParser.parse(
            try TestFiles.corpusFile("d-kimuson__claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
        ).records

        let conversation = ConversationBuilder.build(records: records)

        let taskCalls = conversation.toolCalls.filter { $0.name == "Task" }.map(\.id)
        #expect(!conversation.subagents.isEmpty)
        #expect(conversation.subagents.allSatisfy { $0.source == .inline })
        #expect(Set(conversation.subagents.compactMap(\.toolUseId)) == Set(taskCalls))
        #expect(
            conversation.entries.allSatisfy { entry in
                if case .user(let turn) = entry { return !records.contains { $0.envelope.uuid == turn.uuid && $0.envelope.isSidechain } }
                return true
            })
    }

    @Test func loadingALocalSessionFindsBothSubagentLayouts() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("sh-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: project) }
        let id = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
        let subagents = project.appendingPathComponent("\(id)/subagents")
        try FileManager.default.createDirectory(at: subagents, withIntermediateDirectories: true)
        let copies = [
            ("daaain__claude-code-log__\(id).jsonl", project.appendingPathComponent("\(id).jsonl")),
            (
                "daaain__claude-code-log__\(id)__subagents__agent-a4ca7529859c158c2.jsonl",
                subagents.appendingPathComponent("agent-a4ca7529859c158c2.jsonl")
            ),
            (
                "daaain__claude-code-log__\(id)__subagents__agent-a4ca7529859c158c2.meta.json",
                subagents.appendingPathComponent("agent-a4ca7529859c158c2.meta.json")
            ),
        ]
        for (name, destination) in copies { try Data(try TestFiles.corpusFile(name)).write(to: destination) }

        let session = try LocalSession.load(at: project.appendingPathComponent("\(id).jsonl"))
        let listing = try LocalProject.listSessions(in: project)

        #expect(session.conversation.subagents.map(\.id) == ["a4ca7529859c158c2"])
        #expect(session.conversation.subagents.first?.metadata?.agentType != nil)
        #expect(session.totalUsage.total.outputTokens == session.conversation.usage.total.outputTokens + 7923)
        #expect(listing.map(\.summary.id) == [id])
        #expect(listing.first?.subagentFiles.map(\.lastPathComponent) == ["agent-a4ca7529859c158c2.jsonl"])
    }

    @Test func listingAttachesFlatAgentFilesToTheirParentAndHidesMetadataOnlyFiles() throws {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("sh-flat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let copies = [
            ("daaain__claude-code-log__cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", "cb2e607c-c758-415a-8b45-c49e4631906a.jsonl"),
            ("daaain__claude-code-log__agent-ea02459f.jsonl", "agent-ea02459f.jsonl"),
            ("daaain__claude-code-log__4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl", "4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl"),
        ]
        for (name, destination) in copies {
            try Data(try TestFiles.corpusFile(name)).write(to: project.appendingPathComponent(destination))
        }

        let listing = try LocalProject.listSessions(in: project)
        let session = try LocalSession.load(at: project.appendingPathComponent(copies[0].1))

        #expect(listing.map(\.summary.id) == ["cb2e607c-c758-415a-8b45-c49e4631906a"])
        #expect(listing.first?.subagentFiles.map(\.lastPathComponent) == ["agent-ea02459f.jsonl"])
        #expect(session.conversation.subagents.first?.toolUseId != nil)
    }
}
