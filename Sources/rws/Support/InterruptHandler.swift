import Dispatch
import Foundation

/// Turns Ctrl+C (SIGINT) into a call of `action` instead of killing the process, so that the
/// remote command can be stopped first.
final class InterruptHandler {
    private let source: DispatchSourceSignal

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
    }

    func remove() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
