import Foundation
import SSHClient

/// A command with `--timeout` whose link was lost while it ran: it may still run on the box, and
/// its timeout still holds. rws reconnects within the timeout window, stops it at the deadline
/// (a stop the link cuts off again is tried again on a new connection), and says so; or says
/// that it could not, and under which PID the command may still run.
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

    /// How many times a stop the link cut off again is tried, each on a new connection, even past
    /// the deadline: the box was reached, so the next connection will likely reach it too.
    static let stopAttempts = 3

    /// Reconnects (again each second until the deadline), waits for the deadline, and stops the
    /// command's processes; returns 124 once they are checked gone, or throws what to report
    /// (``SSHError/stopFailed(command:survivors:commandLines:)`` when some survived: 125).
    func run(_ connection: ConnectionOptions) async throws -> Int32 {
        var lastFailure: any Error = loss
        var stopsCutOff = 0
        while true {
            do {
                try await connection.withConnection { ssh in
                    try await Task.sleep(until: deadline, clock: .continuous)
                    do {
                        try await ssh.stopRemoteProcesses(of: pid, command: command)
                    } catch let error as SSHError {
                        switch error {
                        case .stopFailed, .stopUnverified: throw error
                        default: throw StopCutOff(cause: error)
                        }
                    }
                }
                Terminal.err(
                    "rws: the connection was lost while the command ran; rws reconnected and, at its timeout of \(timeout), "
                        + "stopped it (PID \(pid) and its session, checked in the box's process table)\n")
                return RWSExitCode.timedOut
            } catch let cutOff as StopCutOff {
                stopsCutOff += 1
                lastFailure = cutOff.cause
                if stopsCutOff >= Self.stopAttempts {
                    throw CLIError.failed(
                        "\(loss); rws reconnected at its timeout of \(timeout) to stop it, but the link was lost again before the "
                            + "stop was done, \(stopsCutOff) times (\(lastFailure))",
                        code: RWSExitCode.connectionFailed)
                }
            } catch {
                if case SSHError.stopFailed = error { throw error }
                if case SSHError.stopUnverified = error { throw error }
                lastFailure = error
                if ContinuousClock.now < deadline { try? await Task.sleep(for: .seconds(1)) }
                guard ContinuousClock.now < deadline else { break }
            }
        }
        throw CLIError.failed(
            "\(loss); rws could not reconnect within its timeout of \(timeout) to stop it (\(lastFailure))",
            code: RWSExitCode.connectionFailed)
    }

    /// The link failed while the stop itself ran, after rws had reconnected.
    private struct StopCutOff: Error {
        let cause: SSHError
    }
}
