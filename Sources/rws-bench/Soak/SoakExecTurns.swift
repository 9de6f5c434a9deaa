import SSHClient

/// The soak's commands one at a time where the server ends the connection when a command exits
/// while another channel waits for its command (dropbear 2022.82 to 2024.85, docs/servers.md):
/// there the soak runs what rws advises users to run, so that it measures the same figures on
/// every server. Elsewhere every command runs at once.
actor SoakExecTurns {
    private let oneAtATime: Bool
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ connection: SSHConnection) {
        oneAtATime = connection.serverAbortsOnOverlappingCommands
    }

    /// Runs `body` in its turn.
    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard oneAtATime else { return try await body() }
        await take()
        do {
            let value = try await body()
            await give()
            return value
        } catch {
            await give()
            throw error
        }
    }

    private func take() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
