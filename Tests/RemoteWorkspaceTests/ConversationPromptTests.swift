import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import SessionHistory
import Testing

/// What a prompt carries to the model: local images, files on the box.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ConversationPromptTests {
    /// A 1×1 PNG.
    static let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!

    @Test func aLocalImageReachesTheModelAsAnImageBlockAndBoxFilesAreRead() async throws {
        let box = try TestBox(modelInSettings: false, claude: [Turn.text("A tiny image and a note.")])
        defer { box.remove() }
        try "NOTE-ON-THE-BOX 7\n".write(toFile: box.project + "/notes.txt", atomically: true, encoding: .utf8)
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("rws-pixel-\(UUID().uuidString.prefix(6)).png").path
        try Self.png.write(to: URL(fileURLWithPath: local))
        defer { try? FileManager.default.removeItem(atPath: local) }
        let image = try ClaudeImage(contentsOfFile: local)
        #expect(image.mediaType == "image/png")
        try await box.server.withConnection { ssh in
            let conversation = try await ClaudeConversation.start(on: ssh, options: box.options())
            let prompt = ClaudePrompt("What is in these?", images: [image], files: ["notes.txt"])
            let events = try await collect(try await conversation.send(prompt), in: conversation)
            #expect(events.result?.text == "A tiny image and a note.")
            await conversation.stop()
        }
        let request = try #require(box.model.conversationRequests().last)
        let body = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        #expect(body.contains(Self.png.base64EncodedString()))
        #expect(body.contains("\"media_type\":\"image\\/png\"") || body.contains("\"media_type\":\"image/png\""))
        #expect(body.contains("NOTE-ON-THE-BOX 7"))
    }

    @Test func aFileThatIsNotAnImageIsRefusedWithItsPath() throws {
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("rws-text-\(UUID().uuidString.prefix(6)).png").path
        try "plain text".write(toFile: local, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: local) }
        #expect(throws: ClaudeConversationError.attachmentUnreadable(path: local, reason: "not a PNG, JPEG, GIF or WebP image")) {
            _ = try ClaudeImage(contentsOfFile: local)
        }
    }
}
