import Foundation
import SSHClient
import SessionHistory

/// Standing permissions granted through rws and kept in a settings file on the box: noted when
/// granted, so that they can be listed later with whether they are still in force and how to
/// revoke each.
///
/// Claude Code writes a grant kept in `localSettings`, `projectSettings` or `userSettings` into
/// that settings file's `permissions` (a rule under `allow`, `deny` or `ask`, a folder under
/// `additionalDirectories`, a mode as `defaultMode`); grants for the session end with it and are
/// not noted. The notes are JSON lines in `~/.cache/rws/grants.jsonl` on the box, apart from the
/// hooks' folder, which `rws hooks remove` deletes.
public struct ClaudeStandingGrants: Sendable {
    private let host: any ScriptHost

    /// The notes on the box of `connection`.
    public init(connection: SSHConnection) {
        self.init(host: connection)
    }

    package init(host: any ScriptHost) {
        self.host = host
    }

    /// Notes the grants among `grants` that are kept in a settings file.
    ///
    /// - Parameters:
    ///   - grants: The grants of an answer just given.
    ///   - directory: The directory Claude Code runs in (its project settings are there).
    ///   - client: Who answered, in a few words (`rws ask`, `rws watch`, an app's name).
    ///   - time: When.
    public func record(_ grants: [ClaudePermissionGrant], directory: String, client: String, time: Date = Date()) async throws {
        let lines = grants.filter { ClaudeStandingGrant.settingsFile(of: $0.destination, directory: directory) != nil }.map { grant in
            JSONWriter.string(
                from: .object(
                    JSONObject([
                        JSONMember("at", .number(time.timeIntervalSince1970.rounded())), JSONMember("client", .string(client)),
                        JSONMember("directory", .string(directory)), JSONMember("update", grant.update),
                    ])))
        }
        guard !lines.isEmpty else { return }
        _ = try await Self.append.run(on: host, [], input: Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// The grants noted, oldest first, each with whether its settings file holds it now.
    public func list() async throws -> [ClaudeStandingGrant] {
        let boundary = SectionReader.makeBoundary()
        var reader = SectionReader(boundary: boundary)
        let noted = try await Self.read.run(on: host, [.word(boundary)])
        var grants =
            (reader.feed(noted.stdout) + reader.finish()).first { $0.header == "notes" }.map {
                ClaudeStandingGrant.parse(notes: $0.content)
            } ?? []
        let paths = Array(Set(grants.map(\.settingsPath))).sorted()
        guard !paths.isEmpty else { return grants }
        reader = SectionReader(boundary: boundary)
        let files = try await Self.read.run(on: host, [.word(boundary)] + paths.map { .path($0) })
        var settings: [String: JSONValue] = [:]
        for section in reader.feed(files.stdout) + reader.finish() where section.header.hasPrefix("file ") {
            let index = Int(section.header.dropFirst(5)) ?? -1
            if paths.indices.contains(index) { settings[paths[index]] = try? JSONValue(parsing: section.content) }
        }
        for index in grants.indices { grants[index].checkInForce(settings[grants[index].settingsPath]) }
        return grants
    }

    /// Stdin: note lines to append to `~/.cache/rws/grants.jsonl`.
    static let append = RemoteScript(
        step: "noting a standing permission",
        body: #"""
            mkdir -p "$HOME/.cache/rws" && cat >>"$HOME/.cache/rws/grants.jsonl"
            """#)

    /// `$1` a boundary. Without more arguments: `notes` with the notes; with paths: `file N` with
    /// the N-th file (from 0), for each that exists.
    static let read = RemoteScript(
        step: "reading the standing permissions",
        body: #"""
            b=$1; shift
            if [ $# -eq 0 ]; then
              printf '\n%s notes\n' "$b"
              cat "$HOME/.cache/rws/grants.jsonl" 2>/dev/null
            fi
            n=0
            for f in "$@"; do
              [ -f "$f" ] && { printf '\n%s file %s\n' "$b" $n; cat "$f"; }
              n=$((n + 1))
            done
            printf '\n%s end\n' "$b"
            """#)

    static let all = [append, read]
}

/// One standing permission granted through rws (see ``ClaudeStandingGrants``).
public struct ClaudeStandingGrant: Sendable, Equatable {
    /// What was granted.
    public var grant: ClaudePermissionGrant
    /// The directory Claude Code ran in.
    public var directory: String
    /// Who answered (`rws ask`, `rws watch`, …).
    public var client: String
    /// When.
    public var time: Date
    /// The settings file Claude Code keeps it in (`~/` is the box user's home).
    public var settingsPath: String
    /// Whether that file holds it now; nil when rws cannot tell (an update of a type it does not know).
    public var isInForce: Bool?

    /// How to revoke it, in words: what to take out of which file.
    public var revocation: String {
        let file = settingsPath
        switch grant.kind {
        case .rules(let rules, let behavior):
            return "take " + rules.map { "\"\($0)\"" }.joined(separator: ", ") + " out of permissions.\(behavior) in \(file) "
                + "(or use /permissions in Claude Code)"
        case .directories(let folders):
            return "take " + folders.map { "\"\($0)\"" }.joined(separator: ", ") + " out of permissions.additionalDirectories in \(file)"
        case .mode(let mode): return "take \"defaultMode\": \"\(mode.rawValue)\" out of permissions in \(file)"
        case .other(let type): return "undo Claude Code's \(type) update in \(file)"
        }
    }

    /// The settings file of a destination, for Claude Code running in `directory`; nil for one
    /// that is not a file (`session`, `cliArg`).
    static func settingsFile(of destination: String, directory: String) -> String? {
        let project = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        switch destination {
        case "localSettings": return project + "/.claude/settings.local.json"
        case "projectSettings": return project + "/.claude/settings.json"
        case "userSettings": return "~/.claude/settings.json"
        default: return nil
        }
    }

    /// The notes in `text`, one JSON line each; lines that are not notes are skipped.
    static func parse(notes text: [UInt8]) -> [ClaudeStandingGrant] {
        text.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let note = try? JSONValue(parsing: line), let update = note["update"], let directory = note["directory"]?.stringValue
            else { return nil }
            let grant = ClaudePermissionGrant(suggestion: update)
            guard let path = settingsFile(of: grant.destination, directory: directory) else { return nil }
            return ClaudeStandingGrant(
                grant: grant, directory: directory, client: note["client"]?.stringValue ?? "?",
                time: Date(timeIntervalSince1970: note["at"]?.numberValue ?? 0), settingsPath: path, isInForce: nil)
        }
    }

    /// Sets ``isInForce`` from the settings file's contents (nil: missing or not JSON).
    mutating func checkInForce(_ settings: JSONValue?) {
        let permissions = settings?["permissions"]
        func holds(_ key: String, _ values: [String]) -> Bool {
            let present = Set((permissions?[key]?.arrayValue ?? []).compactMap(\.stringValue))
            return values.allSatisfy(present.contains)
        }
        switch grant.kind {
        case .rules(let rules, let behavior): isInForce = holds(behavior, rules)
        case .directories(let folders): isInForce = holds("additionalDirectories", folders)
        case .mode(let mode): isInForce = permissions?["defaultMode"]?.stringValue == mode.rawValue
        case .other: isInForce = nil
        }
    }
}
