import SessionHistory
import Testing

@testable import RemoteWorkspace
@testable import rws

/// What a permission question shows for tools other than Bash, Write and Edit (those are tested
/// against the real CLI in `AskTerminalTests`).
struct PermissionPreviewTests {
    private func preview(_ tool: String, _ input: JSONValue) -> String {
        PermissionPreview(request: ClaudePermissionRequest(requestID: "r", toolName: tool, input: input), color: false).text
    }

    private func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members.map { JSONMember($0.0, $0.1) }))
    }

    @Test func aWebFetchQuestionShowsTheURLAndWhatIsAskedOfThePage() {
        let shown = preview("WebFetch", object([("url", .string("https://example.com/a?b=1")), ("prompt", .string("Find the version"))]))
        #expect(shown == "  https://example.com/a?b=1\n  # Find the version\n")
    }

    @Test func anMCPToolShowsItsServerAndToolAndEachInputAsKeyValueLinesCutAndNeutralised() {
        let input = object([
            ("title", .string("Crash\u{1B}[2J on start")), ("body", .string(String(repeating: "x", count: 250))),
            ("labels", .array([.string("bug"), .string("ui")])), ("count", .number(3)),
        ])
        let lines = preview("mcp__tracker__create_issue", input).split(separator: "\n").map(String.init)
        #expect(lines.first == "  MCP server tracker, tool create_issue")
        #expect(lines.contains("  title: Crash\\e[2J on start"), "\(lines)")
        #expect(lines.contains("  body: " + String(repeating: "x", count: 200) + "… (50 more characters)"))
        #expect(lines.contains(#"  labels: ["bug","ui"]"#) && lines.contains("  count: 3"), "\(lines)")
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func manyInputFieldsAreCutWithACountOfTheRest() {
        let input = object((1...25).map { ("field\($0)", .string("v\($0)")) })
        let lines = preview("SomeTool", input).split(separator: "\n").map(String.init)
        #expect(lines.count == PermissionPreview.maxLines + 1)
        #expect(lines.last == "  … 5 more fields not shown")
    }
}
