import Foundation
import SSHClient

/// A command with `--timeout` whose link was lost while it ran: it may still run on the box, and
/// its timeout still holds. rws reconnects within the timeout window, stops it at the deadline,
/// and says so; or says that it could not, and under which PID the command may still run.
struct LostCommandStop: Error {
    /// The command line.
    let command: String
    /// The PID its wrapper reported: it leads the command's session.
    let pid: Int
    /// When the command's timeout runs out.
    let deadline: ContinuousClock.Instant
    /// The timeout as the user gave it.
    let timeout: String
    /// How the link was lost (saying under which PID the command may still run).
    let loss: SSHError

    /// Reconnects (again each second until the deadline), waits for the deadline, and stops the
    /// command's processes; returns 124 once they are checked gone, or throws what to report
    /// (``SSHError/stopFailed(command:survivors:commandLines:)`` when some survived: 125).
    func run(_ connection: ConnectionOptions) async throws -> Int32 {
        var lastFailure: any Error = loss
        repeat {
            do {
                try await connection.withConnection { ssh in
                    try await Task.sleep(until: deadline, clock: .continuous)
                    try await ssh.stopRemoteProcesses(of: pid, command: command)
                }
                Terminal.err(
                    "rws: the connection was lost while the command ran; rws reconnected and, at its timeout of \(timeout), "
                        + "stopped it (PID \(pid) and its session, checked in the box's process table)\n")
                return RWSExitCode.timedOut
            } catch {
                if case SSHError.stopFailed = error { throw error }
                if case SSHError.stopUnverified = error { throw error }
                lastFailure = error
                if ContinuousClock.now < deadline { try? await Task.sleep(for: .seconds(1)) }
            }
        } while ContinuousClock.now < deadline
        throw CLIError.failed(
            "\(loss); rws could not reconnect within its timeout of \(timeout) to stop it (\(lastFailure))",
            code: RWSExitCode.connectionFailed)
    }
}
