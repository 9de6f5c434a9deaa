import Foundation
import Platform
import Synchronization

/// Watches a relay's end of a socket pair for the connection loop that pumps it.
///
/// The loop polls only its own socket and wake pipe, so a relay (``DirectTCPIPChannel``) says
/// which readiness it waits for on its descriptor (``arm(_:)``: POLLIN when it read everything,
/// POLLOUT when the descriptor was full), and this thread wakes the loop once that readiness
/// comes. Interest is cleared when it fires, so the thread never spins on a descriptor nobody
/// reads; the relay re-arms after its next pass.
final class RelayWatcher: Sendable {
    private let fd: Int32
    private let interest = Atomic<Int16>(0)
    private let stopped = Atomic<Bool>(false)
    private let signal: WakeSignal

    /// Starts the thread; `wakeLoop` is called (from it) whenever the armed readiness comes.
    ///
    /// - Throws: when no descriptor is left for its wake-up pipe.
    init(fd: Int32, wakeLoop: @escaping @Sendable () -> Void) throws(SystemCallError) {
        self.fd = fd
        signal = try WakeSignal()
        let thread = Thread { [self] in watch(wakeLoop) }
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// Sets the readiness (POLLIN, POLLOUT or both; 0 for none) the loop should be woken for.
    func arm(_ events: Int16) {
        if interest.exchange(events, ordering: .acquiringAndReleasing) != events { signal.wake() }
    }

    /// Ends the thread; the descriptor is not touched (its owner closes it).
    func stop() {
        stopped.store(true, ordering: .releasing)
        signal.wake()
    }

    private func watch(_ wakeLoop: @Sendable () -> Void) {
        while !stopped.load(ordering: .acquiring) {
            let events = interest.load(ordering: .acquiring)
            // No interest: ignore the descriptor, or a hang-up would make poll return at once forever.
            var fds = [
                pollfd(fd: events == 0 ? -1 : fd, events: events, revents: 0),
                pollfd(fd: signal.readFD, events: Int16(POLLIN), revents: 0),
            ]
            do {
                guard try SystemCall.poll(&fds, timeout: nil) > 0 else { continue }
            } catch {
                // Let the loop try the relay itself (it reports what fails), and do not spin.
                wakeLoop()
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            if fds[1].revents != 0 { signal.drain() }
            if fds[0].revents != 0 {
                _ = interest.compareExchange(expected: events, desired: 0, ordering: .acquiringAndReleasing)
                wakeLoop()
            }
        }
    }
}
