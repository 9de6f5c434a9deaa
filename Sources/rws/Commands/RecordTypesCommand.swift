import ArgumentParser
import Foundation
import RemoteWorkspace
import SessionHistory

struct RecordTypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-types",
        abstract: "Count the record types of Claude Code session files, and name the ones rws does not know.",
        discussion: """
            Claude Code adds record types to its session files without notice. rws keeps a record it does not know as it was \
            written (in --format json exports) and never lets it change a title, count, state or turn it shows; this command \
            says which types the sessions hold: one line per type with its records, its sessions, the first and last Claude \
            Code version seen writing it, and whether rws knows it. It reads whole files: by default the 20 newest sessions \
            (where a new type shows first), --limit N or --all for more.

            Exit status 0 either way: an unknown type is news, not an error.

            Examples:
              rws record-types --host box
              rws record-types --host box app --all
              rws record-types --local ~/.claude/projects/-home-me-app
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var workspace: WorkspaceOptions

    @Argument(help: "Only this project: a workspace project name, a path on the box, or a project folder name.")
    var project: String?

    @Option(name: .long, help: ArgumentHelp("A Claude Code project folder on this machine.", valueName: "dir"), completion: .directory)
    var local: String?

    @Option(name: .long, help: "Read this many of the newest sessions (default 20).")
    var limit: Int?

    @Flag(name: .long, help: "Read every session.")
    var all = false

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a number of sessions, 1 or more") }
        if all, limit != nil { throw ValidationError("--all and --limit both say how many sessions to read; give one") }
        if local != nil, project != nil { throw ValidationError("--local names the project folder itself; leave out PROJECT") }
    }

    private var count: Int? { all ? nil : (limit ?? 20) }

    func run() async throws {
        try await runReportingErrors(json: json) {
            let (census, sessions) = if let local { try Self.localCensus(local) } else { try await remoteCensus() }
            Terminal.out(json ? try Self.json(census, sessions: sessions) : Self.table(census, sessions: sessions))
            return 0
        }
    }

    private static func localCensus(_ path: String) throws -> (RecordTypeCensus, Int) {
        let folder = try RemoteSessionsSupport.localFolder(path)
        var census = RecordTypeCensus()
        let listings = try LocalProject.listSessions(in: folder, includeUnlisted: true)
        for listing in listings {
            census.add(try SessionParser.parseFile(at: listing.url, retention: .conversation).records)
        }
        return (census, listings.count)
    }

    private func remoteCensus() async throws -> (RecordTypeCensus, Int) {
        try await RemoteSessionsSupport.withBox(connection, workspace) { sessions, _ in
            var listings = try await sessions.listSessions(project: project)
            if let count { listings = Array(listings.prefix(count)) }
            var census = RecordTypeCensus()
            for listing in listings {
                let loaded = try await sessions.load(listing, options: SessionLoadOptions(retention: .conversation))
                census.add(loaded.lines.records)
            }
            return (census, listings.count)
        }
    }

    static func table(_ census: RecordTypeCensus, sessions: Int) -> String {
        let rows = census.sorted
        guard !rows.isEmpty else { return "no records in \(sessions) session(s)\n" }
        let width = max(4, rows.map(\.type.count).max() ?? 4)
        var text = "TYPE".padding(toLength: width, withPad: " ", startingAt: 0) + "  RECORDS  SESSIONS  VERSIONS              RWS\n"
        for entry in rows {
            let versions = [entry.firstVersion, entry.lastVersion].compactMap { $0?.safeLine }
            let span = versions.isEmpty ? "-" : versions.first == versions.last ? versions[0] : versions.joined(separator: " – ")
            text +=
                entry.type.safeLine.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + String(entry.count).padding(toLength: 7, withPad: " ", startingAt: 0) + "  "
                + String(entry.sessions).padding(toLength: 8, withPad: " ", startingAt: 0) + "  "
                + span.padding(toLength: max(20, span.count), withPad: " ", startingAt: 0) + "  "
                + (entry.isKnown ? "known" : "unknown: kept raw") + "\n"
        }
        let unknown = census.unknown.count
        text += "\(rows.count) types in \(sessions) session(s); " + (unknown == 0 ? "all known to rws\n" : "\(unknown) unknown to rws\n")
        return text
    }

    private struct Report: Encodable {
        struct TypeCount: Encodable {
            var type: String
            var records: Int
            var sessions: Int
            var known: Bool
            var firstVersion: String?
            var lastVersion: String?
        }
        var sessions: Int
        var types: [TypeCount]
    }

    static func json(_ census: RecordTypeCensus, sessions: Int) throws -> String {
        let types = census.sorted.map {
            Report.TypeCount(
                type: $0.type, records: $0.count, sessions: $0.sessions, known: $0.isKnown, firstVersion: $0.firstVersion,
                lastVersion: $0.lastVersion)
        }
        return try JSONValueEncoder.text(of: Report(sessions: sessions, types: types))
    }
}
