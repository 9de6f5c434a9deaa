import Foundation
import SessionHistory
import Testing

@testable import rws

/// Codable reports go through the one JSON writer: what `JSONEncoder` gave them (sorted keys,
/// ISO 8601 dates, nil optionals left out), written the way every other JSON of rws is.
@Suite struct JSONReportTests {
    private struct Report: Encodable {
        let zeta = 1
        let alpha = "a/b \"quoted\"\n"
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        let missing: Int? = nil
        let nested = Nested()
        let list = [1.5, 2]
        let empty: [String] = []
    }

    private struct Nested: Encodable {
        let b = true
        let a: String? = "x"
    }

    @Test func reportsComeOutWithSortedKeysIsoDatesAndNoNilMembers() throws {
        let text = try JSONValueEncoder.text(of: Report())
        #expect(
            text == """
                {
                  "alpha": "a/b \\"quoted\\"\\n",
                  "empty": [],
                  "list": [
                    1.5,
                    2
                  ],
                  "nested": {
                    "a": "x",
                    "b": true
                  },
                  "when": "2023-11-14T22:13:20Z",
                  "zeta": 1
                }

                """)
    }

    @Test func reportsDecodeToTheSameValueAsJSONEncoderGave() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let foundation = try JSONValue(parsing: Array(try encoder.encode(Report())))
        #expect(try JSONValueEncoder.encode(Report()) == foundation)
    }

    @Test func aValueAddingKeysBesideItsOwnKeepsThemInOneObject() throws {
        var summary = SessionSummary(id: "s1", fileSize: 10)
        summary.title = "T"
        let tree = try JSONValueEncoder.encode(WithState(summary, summary: summary, detached: "c1", now: 0))
        #expect(tree["detached"]?.stringValue == "c1")
        #expect(tree["id"]?.stringValue == "s1")
    }
}
