import Foundation
import RWSTestSupport
import RemoteWorkspace
import SSHClient
import Testing

/// The real corpus, read at test time from `../shared/claude-corpus/jsonl` beside the package.
enum Corpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/claude-corpus/jsonl")

    /// One corpus file and where Claude Code keeps it: `<project>/<relative path>`.
    struct Placement {
        var corpusName: String
        var project: String
        var relativePath: String
    }

    /// Every file with its place, from SOURCES.md (`### \`name\`` then `- repo: … — path: \`…\``).
    static func placements() throws -> [Placement] {
        let sources = folder.appendingPathComponent("SOURCES.md")
        guard FileManager.default.fileExists(atPath: sources.path) else {
            Issue.record("The corpus \(folder.path) is missing; check out shared/claude-corpus beside the package.")
            throw CocoaError(.fileNoSuchFile)
        }
        var result: [Placement] = []
        var name: String?
        for line in try String(contentsOf: sources, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("### `") { name = String(line.dropFirst(5).dropLast()) }
            guard let current = name, line.hasPrefix("- repo:"), let range = line.range(of: "path: `") else { continue }
            let path = line[range.upperBound...].prefix { $0 != "`" }.split(separator: "/").map(String.init)
            if let index = path.firstIndex(of: "subagents") {
                result.append(
                    Placement(
                        corpusName: current, project: path[index - 2],
                        relativePath: path[(index - 1)...].joined(separator: "/")))
            } else {
                result.append(Placement(corpusName: current, project: path[path.count - 2], relativePath: path[path.count - 1]))
            }
            name = nil
        }
        return result
    }
}

extension TestBox {
    /// Where rws looks on this box: its workspace root and its Claude data folder.
    var locations: WorkspaceLocations { WorkspaceLocations(workspaceRoot: workspaceRoot, claudeDirectories: [claudeDirectory]) }

    /// Copies the whole corpus in (or the files whose names hold one of `names`), laid out as
    /// Claude Code lays it out.
    func layOutCorpus(only names: Set<String>? = nil) throws {
        for placement in try Corpus.placements()
        where names.map({ names in names.contains { placement.corpusName.contains($0) } }) ?? true {
            let destination = URL(fileURLWithPath: claudeProjects).appendingPathComponent(placement.project)
                .appendingPathComponent(placement.relativePath)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Corpus.folder.appendingPathComponent(placement.corpusName), to: destination)
        }
    }

    /// Sessions on the box's host (a fresh connection, closed before returning), with the box's
    /// Claude data folder and its own cache.
    func withSessions<T>(
        cache: Bool = true, options: SessionListingOptions = SessionListingOptions(),
        _ body: (RemoteSessions) async throws -> T
    ) async throws -> T {
        try await withHost { host in
            let sessions = RemoteSessions(
                host: host, locations: locations, cache: cache ? SessionListingCache(fileURL: cacheFile) : nil, options: options)
            return try await body(sessions)
        }
    }
}

/// JSONL records for hand-made sessions.
enum Records {
    static func user(_ text: String, uuid: String, parent: String?, session: String, time: String = "2026-01-02T10:00:00.000Z") -> String {
        let parentField = parent.map { "\"\($0)\"" } ?? "null"
        return #"{"parentUuid":\#(parentField),"isSidechain":false,"type":"user","uuid":"\#(uuid)","sessionId":"\#(session)","#
            + #""cwd":"/home/dev/proj","timestamp":"\#(time)","message":{"role":"user","content":"\#(text)"}}"#
    }

    /// `count` user prompts `u1`…`uN`, each the child of the one before, each padded with `padding`.
    static func promptChain(_ count: Int, padding: String, session: String) -> [String] {
        (1...count).map {
            user("prompt \($0) " + padding, uuid: "u\($0)", parent: $0 == 1 ? nil : "u\($0 - 1)", session: session)
        }
    }

    static func assistant(
        _ text: String, uuid: String, parent: String, session: String,
        time: String = "2026-01-02T10:00:05.000Z"
    ) -> String {
        #"{"parentUuid":"\#(parent)","isSidechain":false,"type":"assistant","uuid":"\#(uuid)","sessionId":"\#(session)","#
            + #""cwd":"/home/dev/proj","timestamp":"\#(time)","message":{"id":"msg_\#(uuid)","role":"assistant","#
            + #""model":"claude-test","content":[{"type":"text","text":"\#(text)"}]}}"#
    }
}
