import ArgumentParser
import RemoteWorkspace

extension ProjectError: ReportableError {
    var message: String { description }
    /// Bad input is a usage error (exit 64), a lost connection 255, a cancelled clone exits 130 as
    /// an interrupt; git missing on the box 69, and credentials the box lacks or a workspace root
    /// the login may not write 77, as for review commands; anything else 1 (a full disk too, as
    /// for transfers).
    var exitCode: Int32 {
        switch self {
        case .invalidName, .invalidURL, .invalidBranch, .invalidDepth, .cannotDeriveName: return ExitCode.validationFailure.rawValue
        case .interrupted: return RWSExitCode.connectionFailed
        case .cancelled: return RWSExitCode.interrupted
        case .gitMissing: return RWSExitCode.unavailable
        case .authenticationRequired, .workspaceNotWritable: return RWSExitCode.noPermission
        default: return RWSExitCode.failure
        }
    }
}
