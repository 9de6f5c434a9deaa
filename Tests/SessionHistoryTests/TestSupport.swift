import Foundation
import Testing

@testable import SessionHistory

/// Locations of test inputs, derived from this file's path so tests run from any directory.
enum TestPaths {
    /// The package root (two levels above `Tests/SessionHistoryTests/`).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared/claude-corpus/jsonl` next to the package: the real files, read in place.
    static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/claude-corpus/jsonl")

    /// The fixtures written for this module.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
}

/// Reads test inputs, failing with a clear message (never skipping) when one is missing.
enum TestFiles {
    static func corpusFile(_ name: String) throws -> [UInt8] {
        let url = TestPaths.corpus.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record(
                """
                The real corpus file \(url.path) is missing. The tests read ../shared/claude-corpus/jsonl next to the package; \
                check it out there.
                """)
            throw MissingInput(path: url.path)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(name)))
    }

    static func corpusNames() throws -> [String] {
        guard FileManager.default.fileExists(atPath: TestPaths.corpus.path) else {
            Issue.record("The real corpus folder \(TestPaths.corpus.path) is missing; the corpus tests cannot run.")
            throw MissingInput(path: TestPaths.corpus.path)
        }
        return try FileManager.default.contentsOfDirectory(atPath: TestPaths.corpus.path).filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    struct MissingInput: Error, CustomStringConvertible {
        let path: String
        var description: String { "missing test input: \(path)" }
    }
}

/// Builds JSONL text from lines.
func jsonl(_ lines: String...) -> [UInt8] {
    Array((lines.joined(separator: "\n") + "\n").utf8)
}

extension Conversation {
    /// The user turns, in order.
    var userTurns: [UserTurn] {
        entries.compactMap { if case .user(let turn) = $0 { return turn } else { return nil } }
    }

    /// The assistant turns, in order.
    var assistantTurns: [AssistantTurn] {
        entries.compactMap { if case .assistant(let turn) = $0 { return turn } else { return nil } }
    }
}
