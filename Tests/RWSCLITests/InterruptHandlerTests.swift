import Foundation
import Glibc
import RWSTestSupport
import Synchronization
import Testing

@testable import rws

/// `InterruptHandler`: a signal is never lost between taking it over and acting on it.
@Suite struct InterruptHandlerTests {
    /// Dispatch takes a signal over on its own thread after `resume()`; a signal sent before then
    /// met `SIG_IGN` and was lost (every time, when sent at once). SIGUSR2: the suite's tests
    /// side by side own SIGINT, SIGTERM and SIGHUP.
    @Test func aSignalSentTheMomentTheHandlerIsMadeIsCaught() async throws {
        let caught = Atomic<Int>(0)
        let handler = InterruptHandler(signals: [SIGUSR2]) { _ in caught.add(1, ordering: .relaxed) }
        defer { handler.remove() }
        kill(getpid(), SIGUSR2)
        #expect(try await Eventually.holds(within: .seconds(5)) { caught.load(ordering: .relaxed) == 1 })
    }
}
