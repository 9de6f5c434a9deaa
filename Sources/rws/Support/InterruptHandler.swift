import Dispatch
import Foundation
import Platform

/// Turns signals that would kill the process (Ctrl+C's SIGINT unless told otherwise) into calls
/// of `action`, so that the remote command can be stopped first. Until ``remove()`` the signals
/// no longer kill the process, however often they come.
final class InterruptHandler {
    private let sources: [DispatchSourceSignal]
    private let signals: [Int32]

    /// Calls `action` with the number of each signal in `signals` that arrives.
    init(signals: [Int32] = [SIGINT], _ action: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        sources = signals.map { number in
            SystemCall.ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { action(number) }
            source.resume()
            return source
        }
    }

    /// Calls `action` on each Ctrl+C (SIGINT).
    convenience init(_ action: @escaping @Sendable () -> Void) {
        self.init { _ in action() }
    }

    /// Gives the signals their default effect back.
    func remove() {
        for source in sources { source.cancel() }
        SystemCall.restoreDefaultAction(signals)
    }
}
