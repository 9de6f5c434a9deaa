import SSHClient

/// How `rws get` and `rws put` end when the link is lost mid-copy: the temporary (.NAME.rws-part)
/// keeps what arrived, so the message says how to go on from it rather than only that the link went.
enum InterruptedCopy {
    /// `error`, with what to do next when it is a lost link; every other error unchanged.
    static func explain(_ error: any Error) -> any Error {
        guard let lost = error as? SSHError, case .connectionLost = lost else { return error }
        return CLIError.failed(
            "\(lost); run the same command with --resume to go on from what arrived",
            code: RWSExitCode.connectionFailed)
    }
}
