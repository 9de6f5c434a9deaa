import Glibc
import Platform
import RemoteWorkspace
import SSHClient
import Synchronization

/// The one way every command that runs something on the box ends on a signal: SIGINT, SIGTERM and
/// SIGHUP (a closed terminal) alike stop the remote processes first, then rws exits 128 + the
/// signal's number (130, 143, 129) once the stop was checked.
final class EndingSignal: Sendable {
    /// The signals that end such a command.
    static let numbers = [SIGINT, SIGTERM, SIGHUP]

    private let received = Mutex<Int32?>(nil)

    /// The first of ``numbers`` that arrived, if any.
    var number: Int32? { received.withLock { $0 } }

    /// Calls `stop` on each of ``numbers`` that arrives (no signal kills rws meanwhile), after
    /// recording the first one; `remove()` the handler once the command ended.
    func handle(_ stop: @escaping @Sendable () -> Void) -> InterruptHandler {
        InterruptHandler(signals: Self.numbers) { [self] number in
            record(number)
            stop()
        }
    }

    /// Records `number` as the ending signal unless one came before.
    func record(_ number: Int32) {
        received.withLock { if $0 == nil { $0 = number } }
    }

    /// Ends rws as `number` would have without a handler (its default action), for a signal that
    /// arrives before there is anything on the box to stop.
    static func dieOf(_ number: Int32) {
        SystemCall.restoreDefaultAction(numbers)
        try? SystemCall.kill(SystemCall.processID, number)
    }

    /// `error` as rws reports it: a cancellation that a signal asked for exits 128 + its number,
    /// naming the signal; every other error (a stop that left processes: 125) is unchanged.
    func reporting(_ error: any Error) -> any Error {
        guard let number else { return error }
        let message: String
        switch error {
        case SSHError.cancelled: message = String(describing: error)
        case let error as ProjectError:
            guard case .cancelled = error else { return error }
            message = error.description
        case CLIError.failed(let text, let code) where code == RWSExitCode.interrupted: message = text
        default: return error
        }
        return CLIError.failed("\(Self.name(of: number)): \(message)", code: 128 + number)
    }

    /// The signal's usual name.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "interrupted (SIGINT)"
        case SIGTERM: "terminated (SIGTERM)"
        case SIGHUP: "hung up (SIGHUP)"
        default: "signal \(number)"
        }
    }
}
