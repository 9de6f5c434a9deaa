import Foundation

/// The environment a command reads (`HOME`, `RWS_*`, `SSH_AUTH_SOCK`, `TERM`, ...): the process's
/// own, or, for a command run in-process (a test), the one set for that task. Every read of the
/// environment in rws goes through here, so that an in-process command never sees the test
/// process's real `HOME`.
enum ProcessEnvironment {
    /// The environment for the current task, when one was set (``InProcessRWS`` in the tests).
    @TaskLocal static var override: [String: String]?

    /// The environment commands read.
    static var current: [String: String] { override ?? ProcessInfo.processInfo.environment }
}
