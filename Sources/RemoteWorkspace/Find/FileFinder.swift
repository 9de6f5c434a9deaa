import SSHClient

/// Finds a project's files by fuzzy query, for `@` references.
///
/// The file list comes from `git ls-files -co --exclude-standard` in a repository and from a
/// pruned `find` elsewhere. It is kept here and reused while the repository's HEAD and index are
/// unchanged: each query costs one small remote command that answers `same`. Outside a
/// repository the list is fetched each time.
///
/// ```swift
/// let finder = FileFinder(connection: connection)
/// for match in try await finder.find("ffind", in: "~/workspace/app") { print(match.path, match.positions) }
/// ```
public actor FileFinder {
    /// Where commands run: the box behind an SSH connection, or this machine (tests).
    package let host: any ScriptHost
    /// The connection commands run on; nil for files on this machine.
    public nonisolated var connection: SSHConnection? { host as? SSHConnection }
    private var lists: [String: FileList] = [:]

    /// A finder on the box behind `connection`, with nothing cached.
    public init(connection: SSHConnection) {
        host = connection
    }

    /// A finder wherever `host` runs scripts, with nothing cached.
    package init(host: any ScriptHost) {
        self.host = host
    }

    /// The files of `directory` (a remote path; `~/` is the remote home), from the cache when the
    /// repository has not changed since it was listed.
    public func files(in directory: String) async throws -> FileList {
        let known = lists[directory]
        let result = try await FileListScript.script.run(on: host, [.path(directory), .word(known?.stamp ?? "")], timeout: nil) {
            if $0.status == FileListScript.Exit.noDirectory { return FileFinderError.directoryNotFound(path: directory) }
            return FileFinderError.remoteCommandFailed(path: directory, status: $0.status.description, detail: $0.lastErrorLine)
        }
        if let known, !known.stamp.isEmpty, result.stdout == Array("same".utf8) + [0] { return known }
        guard let list = FileList(directory: directory, output: result.stdout) else {
            throw FileFinderError.malformedOutput(path: directory)
        }
        lists[directory] = list
        return list
    }

    /// The files of `directory` matching `query`, best first, at most `limit`.
    public func find(_ query: String, in directory: String, limit: Int = 50) async throws -> [FileMatch] {
        FileMatch.rank(try await files(in: directory).paths, query: query, limit: limit)
    }
}
