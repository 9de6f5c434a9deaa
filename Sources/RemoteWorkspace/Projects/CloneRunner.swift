import SSHClient
import Synchronization

/// Runs a ``CloneScript`` over one streamed command: parses progress, stops a clone that goes
/// quiet for too long, and removes the temporary directory on every failure path.
struct CloneRunner {
    let host: any ScriptHost
    let clone: CloneScript

    /// Clones; returns the destination's real path on the box and the checked-out branch.
    func run(onEvent: @Sendable (CloneEvent) -> Void) async throws -> (path: String, branch: String?) {
        let remote = try CloneScript.script.start(on: host, try clone.arguments())
        let watchdog = StallWatchdog(timeout: clone.options.stallTimeout) { remote.cancel() }
        var parser = GitProgressParser()
        var stdout: [UInt8] = []
        let status: ExitStatus
        do {
            for try await chunk in remote.output {
                watchdog.touch()
                switch chunk {
                case .stdout(let bytes): stdout += bytes
                case .stderr(let bytes): parser.consume(bytes).forEach(onEvent)
                }
            }
            parser.finish().forEach(onEvent)
            status = try await remote.exitStatus()
        } catch {
            watchdog.stop()
            remote.cancel()
            await removeTemporaryDirectory()
            if watchdog.fired { throw ProjectError.stalled(url: clone.source.url, after: clone.options.stallTimeout) }
            if case SSHError.cancelled = error { throw ProjectError.cancelled(url: clone.source.url) }
            if Task.isCancelled { throw ProjectError.cancelled(url: clone.source.url) }
            if case SSHError.connectionLost(let reason) = error {
                throw ProjectError.interrupted(
                    operation: "cloning \(clone.source.url)", reason: reason,
                    boxState: "The clone may still be running on the box, stopped half-way in a hidden temporary directory next to "
                        + "\(clone.destination), or finished at \(clone.destination). Run the same clone again: a finished clone "
                        + "of this address is recognised and registered, and what an unfinished one left is removed.")
            }
            throw error
        }
        watchdog.stop()
        let fields = stdout.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard status.isSuccess, fields.count >= 2, !fields[0].isEmpty else {
            await removeTemporaryDirectory()
            throw CloneFailure.error(
                url: clone.source.url, branch: clone.branch, status: status,
                messages: parser.recentMessages, destination: clone.destination, root: clone.locations.workspaceRoot)
        }
        if fields.count > 2, fields[2] == "existing" {
            onEvent(.message("\(clone.destination) is already a complete clone of \(clone.source.url): nothing to do"))
        }
        return (fields[0], fields[1].isEmpty ? nil : fields[1])
    }

    /// Runs the clean-up in a task of its own, so that it runs even when the caller's task is cancelled.
    private func removeTemporaryDirectory() async {
        let (host, arguments) = (host, clone.cleanupArguments)
        _ = try? await Task.detached { try await CloneScript.cleanup.result(on: host, arguments, timeout: .seconds(60)) }.value
    }
}
