extension RemoteScript {
    /// Runs the script on `host` to its end and returns its result, whatever its exit status.
    ///
    /// - Parameters:
    ///   - timeout: How long it may run; nil for no limit (a file transfer's read or write).
    ///   - idempotent: Whether running it twice does no harm, so that it may run again after a reconnect.
    package func result(
        on host: any ScriptHost, _ arguments: [Argument] = [], input: [UInt8] = [], timeout: Duration? = .seconds(120),
        idempotent: Bool = false
    ) async throws -> CommandResult {
        try await host.runCommand(try commandLine(arguments), input: input, timeout: timeout, idempotent: idempotent)
    }

    /// Runs the script on `host`; any exit status but 0 throws what `failure` makes of the
    /// result. Every caller that checks a script's status comes here, with its own error domain
    /// (files, persistent shells, sessions): one place where statuses become errors.
    package func run(
        on host: any ScriptHost, _ arguments: [Argument] = [], input: [UInt8] = [], timeout: Duration? = .seconds(120),
        idempotent: Bool = false, failure: (CommandResult) -> any Error
    ) async throws -> CommandResult {
        let result = try await result(on: host, arguments, input: input, timeout: timeout, idempotent: idempotent)
        guard result.status.isSuccess else { throw failure(result) }
        return result
    }
}
