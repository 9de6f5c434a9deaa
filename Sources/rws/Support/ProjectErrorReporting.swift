import RemoteWorkspace

extension ProjectError {
    /// The CLI's view of the error: bad input is a usage error (exit 64), a lost connection 255,
    /// a cancelled clone exits 130 as an interrupt, anything else 1.
    var cliError: CLIError {
        switch self {
        case .invalidName, .invalidURL, .invalidBranch, .invalidDepth, .cannotDeriveName:
            return .usage(description)
        case .interrupted:
            return .failed(description, code: RWSExitCode.connectionFailed)
        case .cancelled:
            return .failed(description, code: RWSExitCode.interrupted)
        default:
            return .failed(description, code: RWSExitCode.failure)
        }
    }
}

/// Runs `body`, turning a ``ProjectError`` into the matching ``CLIError``.
func mappingProjectErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ProjectError {
        throw error.cliError
    }
}
