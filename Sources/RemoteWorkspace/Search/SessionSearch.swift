import SSHClient
import SessionHistory

/// Searches every session with one remote command; see ``RemoteSessions/search(_:)``.
enum SessionSearch {
    /// A listed session and the paths of its subagent transcripts, for attributing matches.
    struct Listed: Sendable {
        var session: SessionSearchSession
        var subagentPaths: [String]
    }

    /// Runs the search script on `host` (the box, or this machine for `--local`),
    /// then `listed` lists the project folders with a match, and each file's matches go to its
    /// session.
    static func search(
        _ query: SessionSearchQuery, folders: [String], workspaceRoot: String,
        host: any ScriptHost,
        listed: @Sendable (_ projectFolders: [String]) async throws -> (sessions: [Listed], bytes: Int)
    ) async throws -> SessionSearchResult {
        let pattern: SearchPattern
        switch query.match {
        case .text(let text): pattern = try SearchPattern.text(text)
        case .regex(let expression): pattern = try SearchPattern.regex(expression)
        }
        let projectPattern = try ProjectPattern.pattern(for: query.project, workspaceRoot: workspaceRoot)
        let boundary = SectionReader.makeBoundary()
        let script = SessionSearchScript.script
        let arguments =
            [.word(boundary)]
            + SessionSearchScript.arguments(
                pattern: pattern, projectPattern: projectPattern, since: query.since ?? 0, limits: query.limits, folders: folders)
        let result = try await script.run(on: host, arguments, timeout: .seconds(300)) { result in
            guard result.status == SessionSearchScript.Exit.badExpression else { return script.failure(result) }
            let said = result.stderrText.split(separator: "\n").first.map(String.init) ?? "grep refused it"
            return RemoteSessionError.invalidSearch(query.text, reason: "the box's grep says: \(said)")
        }
        var reader = SectionReader(boundary: boundary)
        let sections = reader.feed(result.stdout) + reader.finish()
        guard sections.last?.header == "end" else {
            throw RemoteSessionError.malformedOutput(step: script.step, reason: "the output ended before its end marker")
        }
        var output = SessionSearchOutput(
            folders: folders, limits: query.limits, isRegex: pattern.isRegex, sinceTimestamp: query.since.map(isoTimestamp))
        try output.take(Array(sections.dropLast()))
        // Titles from the listing of only the project folders with a match: the listing reads a
        // whole project (titles may come from summaries in its other files), nothing beyond.
        let projects = Set(output.files.map(\.projectFolder)).sorted()
        let titles: (sessions: [Listed], bytes: Int) = projects.isEmpty ? ([], 0) : try await listed(projects)
        return SessionSearchResult(
            sessions: attribute(output.files, to: titles.sessions), matchedFileCount: output.matchedFileCount,
            isTruncated: output.isTruncated, bytesTransferred: result.stdout.count + result.stderr.count + titles.bytes)
    }

    /// Each file's hits under its session (a subagent's under the session that started it),
    /// newest session first; a file no listing names is a session of its own.
    static func attribute(_ files: [SearchedFile], to listed: [Listed]) -> [SessionSearchSession] {
        var owner: [String: Int] = [:]
        for (index, entry) in listed.enumerated() {
            owner[entry.session.file.path] = index
            for path in entry.subagentPaths { owner[path] = index }
        }
        var sessions: [Int: SessionSearchSession] = [:]
        var unlisted: [SessionSearchSession] = []
        for found in files {
            guard let index = owner[found.file.path] else {
                let name = String(found.file.path.split(separator: "/").last ?? "")
                var summary = SessionSummarizer.summarize(fileName: name, fileSize: found.file.size, head: [], tail: [])
                summary.modificationTime = found.file.modified
                let parts = found.file.path.split(separator: "/")
                let project = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
                unlisted.append(SessionSearchSession(file: found.file, projectFolder: project, summary: summary, hits: found.hits))
                continue
            }
            var session = sessions[index] ?? listed[index].session
            let isSubagent = found.file.path != session.file.path
            let subagent = isSubagent ? String(found.file.path.split(separator: "/").last ?? "") : nil
            let hits = found.hits.map { hit in
                var hit = hit
                hit.subagentFile = subagent
                return hit
            }
            session.hits = isSubagent ? session.hits + hits : hits + session.hits
            sessions[index] = session
        }
        return (Array(sessions.values) + unlisted).sorted {
            ($0.file.modified, $1.file.path) > ($1.file.modified, $0.file.path)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS` (UTC) for seconds since 1970, comparable with stored timestamps.
    static func isoTimestamp(_ seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days to civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))"
    }
}

extension SessionSearchQuery {
    /// The text or expression, for messages.
    var text: String {
        switch match {
        case .text(let text), .regex(let text): text
        }
    }
}

extension RemoteSessions {
    /// Searches every session on the box (or one project's) with one remote command: `grep`
    /// picks the matching files and lines, `awk` sends back only a window around each match and
    /// the record's role, uuid and time; then the listing of only the project folders with a
    /// match gives the titles. Only the newest ``SessionSearchLimits/files`` files with a match
    /// are read; the result says when a limit cut.
    ///
    /// ```swift
    /// let found = try await sessions.search(SessionSearchQuery(.text("flaky test"), project: "app"))
    /// for session in found.sessions { for hit in session.hits { print(session.id, hit.role, hit.match) } }
    /// ```
    ///
    /// - Throws: ``RemoteSessionError/invalidSearch(_:reason:)`` for an empty text or an
    ///   expression grep refuses; ``RemoteSessionError/invalidName(_:reason:)`` for a project
    ///   name that cannot be one.
    public func search(_ query: SessionSearchQuery) async throws -> SessionSearchResult {
        try await SessionSearch.search(
            query, folders: locations.claudeProjectFolders, workspaceRoot: locations.workspaceRoot, host: host,
            listed: { projects in
                let listing = try await self.listing(projectPattern: projects.joined(separator: "\n"), includeUnlisted: true)
                let sessions = listing.sessions.map {
                    SessionSearch.Listed(
                        session: SessionSearchSession(file: $0.file, projectFolder: $0.projectFolder, summary: $0.summary, hits: []),
                        subagentPaths: $0.subagentFiles.map(\.path))
                }
                return (sessions, listing.statistics.bytesTransferred)
            })
    }

    /// The same search over Claude Code projects folders on this machine (`~/.claude/projects`),
    /// with this machine's `/bin/sh`, `grep` and `awk`, titles from the local listing: the same
    /// results as on a box holding the same files.
    public static func searchLocally(
        _ query: SessionSearchQuery, folders: [String], workspaceRoot: String = "~/workspace"
    ) async throws
        -> SessionSearchResult
    {
        try await SessionSearch.search(
            query, folders: folders, workspaceRoot: workspaceRoot, host: LocalShell(),
            listed: { (try SessionSearch.listLocalSessions(in: folders, projects: Set($0)), 0) })
    }
}
