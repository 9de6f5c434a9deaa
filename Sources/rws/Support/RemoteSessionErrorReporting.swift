import ArgumentParser
import RemoteWorkspace

extension RemoteSessionError: ReportableError {
    var message: String { description }
    /// An id, project name, title or search that cannot be used is a usage error (exit 64); a
    /// lost link is 255, as for every command; the rest are failures on the box (exit 1).
    var exitCode: Int32 {
        switch self {
        case .invalidName, .invalidTitle, .invalidSearch: return ExitCode.validationFailure.rawValue
        case .interrupted: return RWSExitCode.connectionFailed
        default: return RWSExitCode.failure
        }
    }
}
