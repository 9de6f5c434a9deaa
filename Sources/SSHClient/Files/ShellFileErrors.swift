/// Turns what a failed fallback command said on stderr into a ``RemoteFileError``.
///
/// The scripts run with `LC_ALL=C`, so tools print the C library's own words ("No such file or
/// directory", ...); the scripts' own checks print `rws-error:ERRNO` or `rws-missing:TOOL`.
enum ShellFileErrors {
    private static let markers: [(String, @Sendable (String) -> RemoteFileError)] = [
        ("rws-error:ENOTDIR", { .notADirectory(path: $0) }),
        ("rws-error:ENOENT", { .noSuchFile(path: $0) }),
        ("rws-error:EISDIR", { .isADirectory(path: $0) }),
        ("rws-error:EACCES", { .permissionDenied(path: $0) }),
        ("rws-error:EEXIST", { .alreadyExists(path: $0) }),
        ("rws-error:EINVAL", { .failed(operation: "reading the link", path: $0, reason: "not a symbolic link") }),
        ("No such file or directory", { .noSuchFile(path: $0) }),
        // A path through something that is not a directory does not exist (as over SFTP).
        ("Not a directory", { .noSuchFile(path: $0) }),
        ("Permission denied", { .permissionDenied(path: $0) }),
        ("Operation not permitted", { .permissionDenied(path: $0) }),
        ("Read-only file system", { .permissionDenied(path: $0) }),
        ("Is a directory", { .isADirectory(path: $0) }),
        ("File exists", { .alreadyExists(path: $0) }),
        ("Directory not empty", { .directoryNotEmpty(path: $0) }),
    ]

    /// What a failed script means for `path`: the ``RemoteFileError`` its stderr describes.
    static func failure(operation: String, path: String) -> (CommandResult) -> RemoteFileError {
        { error(stderr: $0.stderr, status: $0.status, operation: operation, path: path) }
    }

    static func error(stderr: [UInt8], status: ExitStatus, operation: String, path: String) -> RemoteFileError {
        let text = String(decoding: stderr, as: UTF8.self)
        if let range = text.range(of: "rws-missing:") {
            let tool = text[range.upperBound...].prefix { !$0.isWhitespace }
            return .toolMissing(tool: String(tool), path: path)
        }
        for (marker, make) in markers where text.contains(marker) { return make(path) }
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        return .failed(operation: operation, path: path, reason: firstLine.isEmpty ? "the command ended with \(status)" : firstLine)
    }
}
