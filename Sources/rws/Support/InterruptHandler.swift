import Dispatch
import Foundation
import Platform

/// Turns signals that would kill the process (Ctrl+C's SIGINT unless told otherwise) into calls
/// of `action`, so that the remote command can be stopped first. Until ``remove()`` the signals
/// no longer kill the process, however often they come.
final class InterruptHandler {
    private let sources: [DispatchSourceSignal]
    private let signals: [Int32]

    /// Calls `action` with the number of each signal in `signals` that arrives; returns once
    /// every signal is taken over.
    ///
    /// Dispatch takes a signal over on a thread of its own, some time after `resume()`; until then
    /// the signal meets `SIG_IGN` and is lost. A command that went on meanwhile ran on the box
    /// deaf to Ctrl+C: one `rws exec` side by side with busy tests never saw its SIGINT and waited
    /// for its remote `sleep` for good. So this waits for the registrations (5 s at most).
    init(signals: [Int32] = [SIGINT], _ action: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        let registered = DispatchGroup()
        sources = signals.map { number in
            SystemCall.ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { action(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        _ = registered.wait(timeout: .now() + 5)
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
