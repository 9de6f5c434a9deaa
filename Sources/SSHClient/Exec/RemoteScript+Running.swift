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
        let result = try await host.runCommand(try commandLine(arguments), input: input, timeout: timeout, idempotent: idempotent)
        if let error = outOfDescriptors(result) { throw error }
        return result
    }

    /// Whether `head`, the first bytes a script printed, may be the start of the descriptor
    /// check's report: a reader of the script's output holds them until the status is known.
    package static func mayBeOutOfDescriptorsReport(_ head: [UInt8]) -> Bool {
        let line = Array((outOfDescriptorsMarker + "\n").utf8)
        return head.count <= line.count + 24 && (head.starts(with: line) || line.starts(with: head))
    }

    /// ``SSHError/boxOutOfDescriptors(step:openFileLimit:)`` when the script's first line found
    /// that its shell could not open a file (``descriptorCheck``); nil otherwise.
    /// A run whose stdout was handed on as it came passes it empty: then the status alone says it.
    package func outOfDescriptors(_ result: CommandResult) -> SSHError? {
        guard checksDescriptors, result.status == .exited(Self.outOfDescriptorsStatus) else { return nil }
        let lines = result.stdoutText.split(separator: "\n")
        guard result.stdout.isEmpty || lines.first == Self.outOfDescriptorsMarker[...] else { return nil }
        return .boxOutOfDescriptors(step: step, openFileLimit: lines.dropFirst().first.flatMap { Int($0) })
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
