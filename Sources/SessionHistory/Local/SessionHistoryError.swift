/// Failures of the local-file conveniences (the byte-level readers never fail).
public enum SessionHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be opened or read.
    case unreadableFile(path: String, reason: String)
    /// A folder could not be listed.
    case unreadableFolder(path: String, reason: String)

    /// A one-line explanation naming the path.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): return "cannot read \(path): \(reason)"
        case .unreadableFolder(let path, let reason): return "cannot list \(path): \(reason)"
        }
    }
}
