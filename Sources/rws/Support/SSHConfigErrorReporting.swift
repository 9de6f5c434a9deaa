import SSHConfig

extension SSHConfigError {
    /// A host, flag or `RWS_*` value that cannot be used, or no host at all: the command line
    /// (or its environment) is wrong, exit 64. A config file that cannot be used is a local failure.
    var isUsageError: Bool {
        switch self {
        case .missingHost, .badHostArgument, .badFlagValue, .badEnvironmentValue: return true
        default: return false
        }
    }
}
