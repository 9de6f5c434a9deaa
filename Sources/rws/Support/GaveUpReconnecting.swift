import Foundation
import SSHClient
import Synchronization

/// When a reconnecting connection was last lost and why its tries failed, so that giving up can
/// say how long rws tried and what stood in the way.
enum GaveUpReconnecting {
    /// The time of the loss the connection has not come back from (nil while connected), and the
    /// reason its latest try failed, kept up to date from the connection's states until cancelled.
    final class Watch: Sendable {
        private let since = Mutex<ContinuousClock.Instant?>(nil)
        private let failure = Mutex<String?>(nil)
        private let task = Mutex<Task<Void, Never>?>(nil)

        fileprivate init(_ connection: SSHConnection) {
            let states = connection.states()
            let watching = Task { [weak self] in
                for await state in states {
                    guard let self else { return }
                    self.note(state)
                }
            }
            task.withLock { $0 = watching }
        }

        private func note(_ state: ConnectionState) {
            switch state {
            case .reconnecting(let attempt, _, let reason):
                since.withLock { $0 = $0 ?? .now }
                // From the second attempt on, the reason is why the one before it failed.
                if attempt > 1 { failure.withLock { $0 = reason } }
            case .connected:
                since.withLock { $0 = nil }
                failure.withLock { $0 = nil }
            case .connecting, .closed: break
            }
        }

        /// When the link was lost, if it has not come back.
        var value: ContinuousClock.Instant? { since.withLock { $0 } }

        /// Why the latest failed try to reconnect failed, if one did since the link was lost.
        var lastFailure: String? { failure.withLock { $0 } }

        /// Stops watching.
        func cancel() { task.withLock { $0?.cancel() } }
    }

    /// Starts watching `connection`'s states.
    static func watch(_ connection: SSHConnection) -> Watch { Watch(connection) }

    /// `error` as rws reports it: a connection that reconnects and failed for good says how long
    /// rws tried and why its tries failed (exit status 255); anything else is unchanged.
    static func explain(_ error: any Error, since watch: Watch, connection: SSHConnection) -> any Error {
        guard let lost = watch.value, connection.configuration.reconnect != nil, let error = error as? SSHError else { return error }
        switch error {
        case .connectionLost, .connectionClosed: break
        default: return error
        }
        let seconds = Int((ContinuousClock.now - lost).components.seconds)
        return CLIError.failed(message(error, triedFor: seconds, lastFailure: watch.lastFailure), code: RWSExitCode.connectionFailed)
    }

    /// The words of ``explain(_:since:connection:)``. A try that failed for want of descriptors
    /// says what to do about them itself, and the box is not to blame.
    static func message(_ error: SSHError, triedFor seconds: Int, lastFailure: String?) -> String {
        let tried = "\(error); rws tried to reconnect for \(seconds)s and gave up"
        guard let lastFailure else { return tried + ": check that the box is reachable, then run the command again" }
        if lastFailure.contains("no file descriptor is left") {
            return tried + ", its tries failing with: \(lastFailure); then run the command again"
        }
        return tried + ", its tries failing with: \(lastFailure): check that the box is reachable, then run the command again"
    }
}
