import Synchronization

extension SSHConnection {
    /// Opens a remote terminal (PTY) running the login shell, or `configuration.command`.
    ///
    /// Returns once the server has accepted the terminal and started the program. The shell
    /// holds one of the server's session channels (MaxSessions) until it ends or is closed.
    ///
    /// ```swift
    /// let shell = try await connection.openShell(.init(columns: 120, rows: 40))
    /// ```
    ///
    /// - Throws: ``SSHError/invalidArgument(_:)`` for an unusable size or terminal type,
    ///   ``SSHError/channelFailed(operation:reason:)`` when the server refuses the terminal or program,
    ///   ``SSHError/cancelled(command:)`` when the task is cancelled while it opens.
    public func openShell(_ configuration: ShellConfiguration = ShellConfiguration()) async throws -> InteractiveShell {
        try configuration.validate()
        let loop = try await link.usableLoop()
        // The pipe exists before the session it should close when its reader is cancelled. Weak:
        // the session holds the pipe, and the loop holds it while the shell runs.
        let closeOnCancel = Mutex(WeakInteractiveShell())
        let pipe = OutputPipe(
            capacity: configuration.bufferSize, resumeProducer: { [loop] in loop.wake() },
            cancelCommand: { if let session = closeOnCancel.withLock({ $0.session }) { Task { try? await session.close() } } })
        let endpoints = ShellChannel.Endpoints(pipe: pipe)
        let created = Promise<LoopBound<ShellChannel>>()
        let submitted = loop.submit { context in
            let channel = ShellChannel(loop: context, configuration: configuration, endpoints: endpoints)
            context.enqueue(channel)
            created.complete(.success(LoopBound(channel, loop: context)))
        }
        if let submitted { throw submitted }
        // The closure runs even when the loop ends first (its teardown runs what was submitted).
        let session = InteractiveShell(connection: self, loop: loop, channel: try await created.value(), endpoints: endpoints)
        closeOnCancel.withLock { $0.session = session }
        do {
            try await withTaskCancellationHandler {
                try await endpoints.started.value()
            } onCancel: {
                Task { try? await session.close() }
            }
        } catch {
            if Task.isCancelled { throw SSHError.cancelled(command: configuration.command ?? "shell") }
            throw error
        }
        return session
    }
}

/// The shell a cancelled output reader should close, held weakly to keep the session collectable.
private struct WeakInteractiveShell: Sendable {
    weak var session: InteractiveShell?
}
