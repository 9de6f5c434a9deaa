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

/// A Claude data folder of its own on the shared test server of one kind, with a cache file of its own.
struct SessionSandbox {
    let place: ScriptPlace
    private let placeServer: TestSSHServer?
    /// The sandbox folder on the box (a local path: the test box is this machine).
    let root: String
    /// `root/claude`: pass it as the Claude data folder.
    var claudeDirectory: String { root + "/claude" }
    var projects: String { claudeDirectory + "/projects" }
    let cacheFile: URL

    /// A sandbox in the home of `place`.
    init(place: ScriptPlace) throws {
        self.place = place
        placeServer = try place.serverKind.map { _ in try place.server() }
        root = try place.home() + "/sessions-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/claude/projects", withIntermediateDirectories: true)
        cacheFile = FileManager.default.temporaryDirectory.appendingPathComponent("rws-cache-\(UUID().uuidString.prefix(8))/sessions.cache")
    }

    /// A sandbox on the shared server of `kind`.
    init(_ kind: ServerKind = .default) throws {
        try self.init(place: ScriptPlace(kind))
    }

    /// The shared server; only for a server place.
    var server: TestSSHServer {
        guard let placeServer else { preconditionFailure("a local sandbox has no server: this test needs a server place") }
        return placeServer
    }

    /// Copies the whole corpus in, laid out as Claude Code lays it out.
    func layOutCorpus(only names: Set<String>? = nil) throws {
        for placement in try Corpus.placements()
        where names.map({ names in names.contains { placement.corpusName.contains($0) } }) ?? true {
            let destination = URL(fileURLWithPath: projects).appendingPathComponent(placement.project)
                .appendingPathComponent(placement.relativePath)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Corpus.folder.appendingPathComponent(placement.corpusName), to: destination)
        }
    }

    /// Writes a session file of `lines` in `project`.
    @discardableResult
    func writeSession(_ id: String, project: String = "-home-dev-proj", lines: [String]) throws -> String {
        let folder = projects + "/" + project
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + id + ".jsonl"
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Appends `lines` to the file at `path`, as a writer adding records does.
    static func append(_ lines: [String], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Sessions on this place's host (a fresh connection, closed before returning), with this
    /// sandbox's folder and cache.
    func withSessions<T>(
        cache: Bool = true, options: SessionListingOptions = SessionListingOptions(),
        _ body: (RemoteSessions) async throws -> T
    ) async throws -> T {
        try await place.withHost { host in
            let sessions = RemoteSessions(
                host: host, locations: WorkspaceLocations(claudeDirectories: [claudeDirectory]),
                cache: cache ? SessionListingCache(fileURL: cacheFile) : nil, options: options)
            return try await body(sessions)
        }
    }

    /// Every path below the sandbox, relative to it, sorted.
    func tree() throws -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(at: cacheFile.deletingLastPathComponent())
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
