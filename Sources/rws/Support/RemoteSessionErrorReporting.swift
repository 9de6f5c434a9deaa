import RemoteWorkspace

extension RemoteSessionError {
    /// An id, project name, title or search that cannot be used is a usage error (exit 64); the rest are
    /// failures on the box (exit 1).
    var isUsageError: Bool {
        switch self {
        case .invalidName, .invalidTitle, .invalidSearch: return true
        default: return false
        }
    }
}
