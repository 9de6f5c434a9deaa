import Foundation
import Platform
import SessionHistory

/// What the user says in a turn: text, local images sent along, and files on the box to read.
public struct ClaudePrompt: Sendable, Equatable {
    /// The prompt text.
    public var text: String
    /// Images sent with the prompt as image content blocks.
    public var images: [ClaudeImage]
    /// Paths on the box (relative to the project directory or absolute) that Claude Code reads
    /// into the prompt, as `@path` mentions.
    public var files: [String]

    /// A prompt.
    ///
    /// - Parameters:
    ///   - text: The prompt text.
    ///   - images: Images sent with the prompt.
    ///   - files: Paths on the box that Claude Code reads into the prompt.
    public init(_ text: String, images: [ClaudeImage] = [], files: [String] = []) {
        self.text = text
        self.images = images
        self.files = files
    }

    /// The `message.content` of the stream-json user message: a plain string when the prompt is
    /// only text, else an array of image blocks and one text block.
    var content: JSONValue {
        let mentions = files.map { path in
            path.contains(where: \.isWhitespace) ? "@\"\(path)\"" : "@" + path
        }
        let text = ([self.text] + mentions).filter { !$0.isEmpty }.joined(separator: " ")
        guard !images.isEmpty else { return .string(text) }
        let blocks =
            images.map(\.contentBlock) + [.object(JSONObject([JSONMember("type", .string("text")), JSONMember("text", .string(text))]))]
        return .array(blocks)
    }
}

/// An image sent with a prompt.
public struct ClaudeImage: Sendable, Equatable {
    /// The media type: `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    public var mediaType: String
    /// The image bytes.
    public var data: Data

    /// An image from its bytes.
    ///
    /// - Parameters:
    ///   - data: The image bytes.
    ///   - mediaType: The media type.
    public init(data: Data, mediaType: String) {
        self.data = data
        self.mediaType = mediaType
    }

    /// Reads a local image file; its type comes from its first bytes.
    ///
    /// - Parameter path: A file on this machine.
    /// - Throws: ``ClaudeConversationError/attachmentUnreadable(path:reason:)`` when it cannot be read
    ///   or is not a PNG, JPEG, GIF or WebP image.
    public init(contentsOfFile path: String) throws {
        let bytes: Data
        do {
            bytes = Data(try SystemCall.readFile(path))
        } catch {
            throw ClaudeConversationError.attachmentUnreadable(path: path, reason: error.reason)
        }
        guard let type = Self.mediaType(of: bytes) else {
            throw ClaudeConversationError.attachmentUnreadable(path: path, reason: "not a PNG, JPEG, GIF or WebP image")
        }
        self.init(data: bytes, mediaType: type)
    }

    /// The media type from the file's signature, which the API checks against the declared type.
    static func mediaType(of bytes: Data) -> String? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    var contentBlock: JSONValue {
        .object(
            JSONObject([
                JSONMember("type", .string("image")),
                JSONMember(
                    "source",
                    .object(
                        JSONObject([
                            JSONMember("type", .string("base64")), JSONMember("media_type", .string(mediaType)),
                            JSONMember("data", .string(data.base64EncodedString())),
                        ]))),
            ]))
    }
}
