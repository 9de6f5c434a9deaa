import SSHClient

/// Work of the caller's that its task's cancellation ended: the commands it ran on the box were
/// stopped (``SSHClient/SSHError/cancelled(command:)``, which names rws's own script), and the
/// caller hears what Swift says of a cancelled task: `CancellationError`.
func endingWithCancellation<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch SSHError.cancelled where Task.isCancelled {
        throw CancellationError()
    }
}
