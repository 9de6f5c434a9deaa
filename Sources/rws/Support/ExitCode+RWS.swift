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
    /// A program rws needs on the box is missing (git), as sysexits' EX_UNAVAILABLE.
    static let unavailable: Int32 = 69
    /// The box's answer was not what rws's script writes: a defect of rws, as sysexits' EX_SOFTWARE.
    static let software: Int32 = 70
    /// A remote asks for credentials the box does not have, as sysexits' EX_NOPERM.
    static let noPermission: Int32 = 77
    /// The box's shell could not open a file (out of descriptors), as sysexits' EX_OSERR.
    static let osError: Int32 = 71
}
