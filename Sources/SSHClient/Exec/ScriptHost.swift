import Logging

/// Where scripts run: the box behind an ``SSHConnection``, or this machine's `/bin/sh`
/// (``LocalShell``). RemoteWorkspace runs every ``RemoteScript`` through one.
package protocol ScriptHost: Sendable {
    /// Runs `commandLine` to its end with `input` on its stdin; a timeout or a lost link throws
    /// ``SSHError``, any exit status is returned. An `idempotent` command may run again after a
    /// reconnect (``SSHConnection/run(_:input:timeout:idempotent:)``).
    func runCommand(_ commandLine: String, input: [UInt8], timeout: Duration?, idempotent: Bool) async throws -> CommandResult

    /// Starts `commandLine` and returns at once; its output is read as it comes.
    func startCommand(_ commandLine: String, timeout: Duration?) throws -> RemoteCommand

    /// Where what the scripts' callers choose is said (at `-v`).
    var logger: Logger { get }
}

extension SSHConnection: ScriptHost {
    package func runCommand(_ commandLine: String, input: [UInt8], timeout: Duration?, idempotent: Bool) async throws -> CommandResult {
        try await run(commandLine, input: input, timeout: timeout, idempotent: idempotent)
    }

    package func startCommand(_ commandLine: String, timeout: Duration?) throws -> RemoteCommand {
        try stream(commandLine, timeout: timeout)
    }

    package var logger: Logger { configuration.logger }
}
