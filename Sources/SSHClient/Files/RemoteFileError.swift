/// Why a remote file call failed: the same cases whether it went through SFTP or the shell.
///
/// Connection-level failures (lost connection, closed connection) are ``SSHError`` instead; the
/// connection stays usable after every ``RemoteFileError``. ``description`` is one line.
public enum RemoteFileError: Error, Sendable, Equatable {
    /// Nothing exists at `path` (or a component of it is missing or not a directory).
    case noSuchFile(path: String)
    /// The remote user may not do this to `path`.
    case permissionDenied(path: String)
    /// `path` exists but is not a directory, and the call needs one.
    case notADirectory(path: String)
    /// `path` is a directory, and the call needs something else (reading, removing as a file).
    case isADirectory(path: String)
    /// Something already exists at `path`.
    case alreadyExists(path: String)
    /// The directory at `path` is not empty.
    case directoryNotEmpty(path: String)
    /// The server does not offer the SFTP subsystem and the connection was told to use only SFTP.
    case sftpUnavailable(reason: String)
    /// The box lacks a tool the shell fallback needs.
    case toolMissing(tool: String, path: String)
    /// Any other failure, with the server's or the tool's words.
    case failed(operation: String, path: String, reason: String)
}

extension RemoteFileError: CustomStringConvertible {
    /// One line: the path as the caller gave it and what is wrong with it.
    public var description: String {
        switch self {
        case .noSuchFile(let path): return "\(path): no such file or directory"
        case .permissionDenied(let path): return "\(path): permission denied"
        case .notADirectory(let path): return "\(path): not a directory"
        case .isADirectory(let path): return "\(path): is a directory"
        case .alreadyExists(let path): return "\(path): already exists"
        case .directoryNotEmpty(let path): return "\(path): directory not empty"
        case .sftpUnavailable(let reason):
            return "the server offers no SFTP (\(reason)); use the automatic or shell file transport"
        case .toolMissing(let tool, let path): return "\(path): the box has no usable `\(tool)`, which rws needs without SFTP"
        case .failed(let operation, let path, let reason): return "\(operation) \(path) failed: \(reason)"
        }
    }
}
