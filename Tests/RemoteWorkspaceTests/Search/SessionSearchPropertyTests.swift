import Foundation
import RWSTestSupport
import RemoteWorkspace
import SessionHistory
import Testing

/// The remote search finds exactly the records whose decoded text holds the query, letters in
/// either case, however the writer escaped them: checked against a search over the records
/// parsed here, on random sessions written in Claude Code's style and in other writers' styles.
@Suite struct SessionSearchPropertyTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func remoteSearchEqualsASearchOfTheDecodedRecords(seed: UInt64) async throws {
        // The scripts are the same everywhere: one seed crosses the wire, the rest run here.
        let sandbox = try TestBox(place: seed == 1 ? ScriptPlace(.default) : .local)
        defer { sandbox.remove() }
        var random = SeededRandom(seed: seed)
        var records: [(session: String, line: Int, json: String)] = []
        for number in 0..<10 {
            let session = "s\(seed)-\(number)"
            var lines: [String] = []
            for line in 1...random.int(in: 2...9) {
                lines.append(RandomRecord.make(session: session, line: line, random: &random))
                records.append((session, line, lines.last!))
            }
            try sandbox.writeSession(session, folder: "-home-dev-p\(number % 3)", lines: lines)
        }

        for round in 0..<6 {
            let query = RandomRecord.query(from: records.randomElement(using: &random)!.json, random: &random)
            let expected = Set(records.filter { RandomRecord.decodedTextContains($0.json, query) }.map { "\($0.session):\($0.line)" })
            let found = try await sandbox.withSessions { try await $0.search(SessionSearchQuery(.text(query))) }
            let actual = Set(found.sessions.flatMap { session in session.hits.map { "\(session.id):\($0.line)" } })
            #expect(actual == expected, "seed \(seed), round \(round), query \(query.debugDescription)")
            #expect(!expected.isEmpty, "seed \(seed): the query was taken from a record's text")
            for hit in found.hits {
                #expect(RandomRecord.folds(hit.match, query), "seed \(seed): \(hit.match.debugDescription) for \(query.debugDescription)")
            }
        }
    }
}

/// Random records and queries for the property test, and the reference search.
enum RandomRecord {
    static let words = [
        "fix", "the", "Flaky", "test", "été", "ÉCOLE", "Straße", "naïve", "Ωmega", "🚀", "\"quoted\"", "a\\b", "<tag>", "x/y",
        "line\nbreak", "tab\there", "it's", "R&D", "café", "CAFÉ", "日本語", "npm", "run", "build",
    ]

    /// One record: a prompt, an answer, a tool result or a summary, written compactly with raw
    /// UTF-8 (Claude Code) or with spaces and `\uXXXX`, `\/` escapes (other writers).
    static func make(session: String, line: Int, random: inout SeededRandom) -> String {
        let text = (0..<random.int(in: 3...12)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        let foreign = random.int(in: 0...1) == 1
        let string = { (value: String) in encode(value, foreign: foreign) }
        let separator = foreign ? ": " : ":"
        let meta =
            "\"uuid\"\(separator)\(string("\(session)-u\(line)")),\"sessionId\"\(separator)\(string(session)),"
            + "\"cwd\"\(separator)\(string("/home/dev/été")),\"timestamp\"\(separator)\(string("2026-02-0\(line % 9 + 1)T10:00:00.000Z"))"
        switch random.int(in: 0...3) {
        case 0:
            return "{\"type\"\(separator)\"user\",\(meta),\"message\"\(separator){\"role\"\(separator)\"user\","
                + "\"content\"\(separator)\(string(text))}}"
        case 1:
            return "{\"type\"\(separator)\"assistant\",\(meta),\"message\"\(separator){\"role\"\(separator)\"assistant\","
                + "\"content\"\(separator)[{\"type\"\(separator)\"text\",\"text\"\(separator)\(string(text))}]}}"
        case 2:
            return "{\"type\"\(separator)\"user\",\(meta),\"message\"\(separator){\"role\"\(separator)\"user\",\"content\"\(separator)"
                + "[{\"type\"\(separator)\"tool_result\",\"tool_use_id\"\(separator)\"toolu_1\",\"content\"\(separator)\(string(text))}]}}"
        default:
            return "{\"type\"\(separator)\"summary\",\"summary\"\(separator)\(string(text)),"
                + "\"leafUuid\"\(separator)\(string("\(session)-u1"))}"
        }
    }

    /// A JSON string literal: Claude Code escapes only what JSON requires; other writers also
    /// escape non-ASCII (`\uXXXX`, surrogate pairs), `/`, and `<`, `>`, `&`, `'`.
    static func encode(_ value: String, foreign: Bool) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += foreign ? "\\u0009" : "\\t"
            case "/" where foreign: out += "\\/"
            case _ where foreign && "<>&'".unicodeScalars.contains(scalar): out += String(format: "\\u%04X", scalar.value)
            default:
                if foreign, !scalar.isASCII {
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A piece of one of the record's texts, a few letters' case changed.
    static func query(from json: String, random: inout SeededRandom) -> String {
        let texts = strings(in: json)
        let text = Array(texts.randomElement(using: &random)!.unicodeScalars)
        let length = min(text.count, random.int(in: 2...8))
        let start = random.int(in: 0...(text.count - length))
        var query = String.UnicodeScalarView()
        for scalar in text[start..<(start + length)] {
            let flipped = random.int(in: 0...2) == 0 ? String(scalar).uppercased() : String(scalar)
            query.append(contentsOf: flipped.unicodeScalars.count == 1 ? flipped.unicodeScalars : String(scalar).unicodeScalars)
        }
        return String(query)
    }

    /// Whether one of the record's conversation strings (not a key, not its ids, times or paths) holds `query`.
    static func decodedTextContains(_ json: String, _ query: String) -> Bool {
        strings(in: json).contains { folds($0, query) }
    }

    /// Whether `text` holds `query`: each query character matches itself and its lower and upper
    /// case forms when each is one character, and ASCII letters match in either case.
    static func folds(_ text: String, _ query: String) -> Bool {
        let text = Array(text.unicodeScalars)
        let query = Array(query.unicodeScalars)
        guard query.count <= text.count else { return false }
        return (0...(text.count - query.count)).contains { start in
            zip(text[start..<(start + query.count)], query).allSatisfy { matches($0, $1) }
        }
    }

    private static func matches(_ character: Unicode.Scalar, _ wanted: Unicode.Scalar) -> Bool {
        let forms = [String(wanted), String(wanted).lowercased(), String(wanted).uppercased()]
            .filter { $0.unicodeScalars.count == 1 }.map { $0.unicodeScalars.first! }
        return forms.contains { form in
            form == character || (form.isASCII && character.isASCII && String(form).lowercased() == String(character).lowercased())
        }
    }

    private static let bookkeeping: Set<String> = ["uuid", "sessionId", "cwd", "timestamp", "type", "role", "tool_use_id", "leafUuid"]

    /// The string values under keys that are not bookkeeping.
    static func strings(in json: String) -> [String] {
        var result: [String] = []
        func walk(_ value: JSONValue, key: String?) {
            switch value {
            case .string(let text): if !(key.map(bookkeeping.contains) ?? false) { result.append(text) }
            case .array(let items): for item in items { walk(item, key: key) }
            case .object(let object): for member in object.members { walk(member.value, key: member.key) }
            default: break
            }
        }
        walk(try! JSONValue(parsing: json), key: nil)
        return result
    }
}
