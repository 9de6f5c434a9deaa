import Foundation
import SSHClient
import Synchronization

/// When a reconnecting connection was last lost, so that giving up can say how long rws tried.
enum GaveUpReconnecting {
    /// The time of the loss the connection has not come back from (nil while connected), kept up
    /// to date from the connection's states until cancelled.
    final class Watch: Sendable {
        private let since = Mutex<ContinuousClock.Instant?>(nil)
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
            case .reconnecting: since.withLock { $0 = $0 ?? .now }
            case .connected: since.withLock { $0 = nil }
            case .connecting, .closed: break
            }
        }

        /// When the link was lost, if it has not come back.
        var value: ContinuousClock.Instant? { since.withLock { $0 } }

        /// Stops watching.
        func cancel() { task.withLock { $0?.cancel() } }
    }

    /// Starts watching `connection`'s states.
    static func watch(_ connection: SSHConnection) -> Watch { Watch(connection) }

    /// `error` as rws reports it: a connection that reconnects and failed for good says how long
    /// rws tried (exit status 255); anything else is unchanged.
    static func explain(_ error: any Error, since lost: ContinuousClock.Instant?, connection: SSHConnection) -> any Error {
        guard let lost, connection.configuration.reconnect != nil, let error = error as? SSHError else { return error }
        switch error {
        case .connectionLost, .connectionClosed: break
        default: return error
        }
        let seconds = Int((ContinuousClock.now - lost).components.seconds)
        return CLIError.failed(
            "\(error); rws tried to reconnect for \(seconds)s and gave up: check that the box is reachable, then run the command again",
            code: RWSExitCode.connectionFailed)
    }
}
