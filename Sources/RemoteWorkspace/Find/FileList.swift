/// The files of one directory on the box, as last listed.
public struct FileList: Sendable {
    /// The directory, as given.
    public let directory: String
    /// Whether the list came from `git ls-files` (tracked and untracked, ignored files left out).
    public let isGitRepository: Bool
    /// The repository's HEAD and index size and time when listed; empty outside a repository.
    public let stamp: String
    /// The paths relative to the directory, as bytes (file names need not be UTF-8), each once.
    public let paths: [[UInt8]]

    /// Parses the listing script's output (see ``FileListScript``); nil when it is malformed.
    init?(directory: String, output: [UInt8]) {
        var fields = output.split(separator: 0, omittingEmptySubsequences: false)
        if fields.last?.isEmpty == true { fields.removeLast() }
        guard fields.count >= 2 else { return nil }
        let kind = String(decoding: fields[0], as: UTF8.self)
        guard kind == "git" || kind == "find" else { return nil }
        self.directory = directory
        isGitRepository = kind == "git"
        stamp = String(decoding: fields[1], as: UTF8.self)
        var seen = Set<[UInt8]>()
        var paths: [[UInt8]] = []
        paths.reserveCapacity(fields.count - 2)
        for field in fields.dropFirst(2) where !field.isEmpty {
            var path = Array(field)
            if !isGitRepository, path.starts(with: [UInt8(ascii: "."), UInt8(ascii: "/")]) { path.removeFirst(2) }
            // A conflicted file is listed once per stage.
            if seen.insert(path).inserted { paths.append(path) }
        }
        self.paths = paths
    }
}
