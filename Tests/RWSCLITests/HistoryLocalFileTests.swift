import Foundation
import RWSTestSupport
import Testing

/// `rws history FILE` on files other tools and Claude Code's subagents write.
@Suite struct HistoryLocalFileTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rws-hist-\(UUID().uuidString.prefix(8))").path

    func run(_ arguments: [String]) async throws -> InProcessRWS.Outcome {
        await InProcessRWS.run(arguments, home: home)
    }

    @Test func aSubagentFileShowsThatSubagentsConversation() async throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/claude-corpus/jsonl/daaain__claude-code-log__agent-c8d9b115.jsonl")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            Issue.record("The real corpus file \(corpus.path) is missing; check out shared/claude-corpus beside the package.")
            return
        }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = home + "/agent-c8d9b115.jsonl"
        try FileManager.default.copyItem(atPath: corpus.path, toPath: file)

        let outcome = try await run(["history", file])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("I'll explore the deep-manifest codebase"))
        #expect(outcome.stdout.components(separatedBy: "Claude").count > 4)
    }

    @Test func aFileWithoutParentLinksShowsEveryMessage() async throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let file = home + "/s.jsonl"
        let lines = (1...4).map { number in
            number % 2 == 1
                ? #"{"type":"user","parentUuid":null,"uuid":"same","message":"question \#(number)"}"#
                : #"{"type":"assistant","parentUuid":null,"uuid":"same","message":{"content":[{"type":"text","#
                    + #""text":"answer \#(number)"}]}}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))

        let outcome = try await run(["history", file])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        for text in ["question 1", "answer 2", "question 3", "answer 4"] { #expect(outcome.stdout.contains(text), "\(text)") }
    }
}
