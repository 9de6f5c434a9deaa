import SSHClient

/// Exit statuses the review scripts use to say why they stopped.
enum ReviewScriptExit: Int32, RemoteScriptExit {
    /// A temporary file could not be made.
    case failed = 1
    /// Stopped by a signal; its temporary files are removed.
    case terminated = 143
    case directoryNotFound = 201
    case notARepository = 202
    case gitFailed = 203
    case gitMissing = 204
    case nothingToCommit = 205
    case outsideRepository = 206
    case authenticationRequired = 207
}
