import Testing

@testable import SSHClient

/// When commands and shells kill their remote processes, decided in one place (pure, no SSH).
@Suite struct RemoteProcessStopTests {
    private let reason = SSHError.connectionClosed

    private func requested() -> RemoteProcessStop {
        var stop = RemoteProcessStop()
        _ = stop.request(reason)
        return stop
    }

    @Test func nothingIsKilledBeforeAStopIsRequested() {
        let stop = RemoteProcessStop()
        #expect(stop.decide(pid: 42, searchingPID: false, outputEnded: false, hangsUpOnClose: false, command: "c") == .wait)
    }

    @Test func onlyTheFirstStopRequestCounts() {
        var stop = requested()
        let again = stop.request(.timedOut(command: "c", after: .seconds(1)))
        #expect(!again)
        #expect(stop.reason == reason)
    }

    @Test func aKnownPIDIsKilledForCommandsAndShells() {
        for hangsUp in [false, true] {
            let decision = requested().decide(pid: 42, searchingPID: false, outputEnded: false, hangsUpOnClose: hangsUp, command: "c")
            #expect(decision == .kill(pid: 42))
        }
    }

    @Test func aCommandWaitsForItsPIDLineWhileItMayStillCome() {
        #expect(requested().decide(pid: nil, searchingPID: true, outputEnded: false, hangsUpOnClose: false, command: "c") == .wait)
    }

    @Test func aCommandWhoseOutputEndedBeforeItsPIDEndsWithTheReason() {
        #expect(requested().decide(pid: nil, searchingPID: true, outputEnded: true, hangsUpOnClose: false, command: "c") == .giveUp(reason))
    }

    @Test func aCommandWhosePIDSearchWasGivenUpOnIsNotCalledStopped() {
        let decision = requested().decide(pid: nil, searchingPID: false, outputEnded: false, hangsUpOnClose: false, command: "c")
        #expect(decision == .giveUp(.stopUnverified(command: "c", reason: RemoteProcessStop.noPID)))
    }

    @Test func aTerminalWithoutAPIDIsStoppedByClosingItsChannel() {
        #expect(requested().decide(pid: nil, searchingPID: true, outputEnded: false, hangsUpOnClose: true, command: "c") == .giveUp(reason))
    }

    @Test func theKillIsTrackedFromStartToEnd() {
        var stop = requested()
        stop.killBegan()
        #expect(stop.killStarted && stop.killRunning)
        stop.killEnded()
        #expect(stop.killStarted && !stop.killRunning)
    }
}
