import ArgumentParser

/// The exit codes rws documents (docs/cli.md), besides a remote command's own status.
enum RWSExitCode {
    /// A remote command ran past `--timeout` and was stopped (as coreutils `timeout`).
    static let timedOut: Int32 = 124
    /// A remote command was to be stopped (timeout, Ctrl+C) but processes of it still run, or
    /// their end could not be checked (as coreutils `timeout` when it fails itself).
    static let stopFailed: Int32 = 125
    /// Interrupted locally (Ctrl+C): 128 + SIGINT.
    static let interrupted: Int32 = 130
    /// The connection failed: host key, authentication, network (as `ssh`).
    static let connectionFailed: Int32 = 255
    /// A file or folder named on the command line does not exist here (as sysexits' EX_NOINPUT).
    static let noInput: Int32 = 66
    /// A local failure: a file that cannot be read, a history that cannot be parsed.
    static let failure: Int32 = 1
}
