import ArgumentParser
import SSHConfig

extension SSHConfigError: ReportableError {
    var message: String { description }
    /// A host, flag or `RWS_*` value that cannot be used, or no host at all: the command line
    /// (or its environment) is wrong, exit 64. A config file that cannot be used is a local failure.
    var exitCode: Int32 {
        switch self {
        case .missingHost, .badHostArgument, .badFlagValue, .badEnvironmentValue: return ExitCode.validationFailure.rawValue
        default: return RWSExitCode.failure
        }
    }
}
