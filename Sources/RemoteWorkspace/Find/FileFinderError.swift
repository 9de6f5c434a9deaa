/// Why the files of a project could not be listed.
public enum FileFinderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory does not exist on the box or cannot be entered.
    case directoryNotFound(path: String)
    /// The listing command failed.
    case remoteCommandFailed(path: String, status: String, detail: String)
    /// The listing's output was not in the expected form.
    case malformedOutput(path: String)

    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            return "cannot list the files of \(path): it is not a directory on the box; check the project name or path"
        case .remoteCommandFailed(let path, let status, let detail):
            return "listing the files of \(path) failed (\(status)): \(detail)"
        case .malformedOutput(let path):
            return "listing the files of \(path) gave output rws does not understand; is the remote shell POSIX?"
        }
    }
}
