import Testing

@testable import SSHClient

/// A channel's life cycle as a value: every transition, without SSH. The channel pointer is a
/// stand-in the machine only carries, never calls.
@Suite struct ChannelStateMachineTests {
    private let channel = LibSSH2Channel(OpaquePointer(bitPattern: 0x1000)!)
    private let requests: [ChannelSetupRequest] = [.pty(terminal: "xterm", modes: [0], columns: 80, rows: 24), .exec("true")]

    private func settingUp() -> ChannelStateMachine {
        var machine = ChannelStateMachine(setupRequests: requests)
        machine.beginOpening()
        _ = machine.opened(channel)
        return machine
    }

    private func running() -> ChannelStateMachine {
        var machine = ChannelStateMachine(setupRequests: [])
        machine.beginOpening()
        _ = machine.opened(channel)
        _ = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        return machine
    }

    @Test func aChannelWalksEveryPhaseFromQueueToDoneCarryingItsChannelWhileItHasOne() {
        var machine = ChannelStateMachine(setupRequests: requests)
        #expect(machine.phase == .queued && machine.channel == nil)
        machine.beginOpening()
        #expect(machine.phase == .opening && machine.channel == nil)
        let step1 = machine.opened(channel)
        #expect(step1 == .setUp)
        #expect(machine.phase == .settingUp && machine.channel == channel)
        for request in requests {
            let step2 = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
            #expect(step2 == .send(request, on: channel))
            machine.requestAccepted()
        }
        let step3 = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step3 == .finished)
        #expect(machine.phase == .running && machine.channel == channel)
        machine.outputEnded()
        #expect(machine.phase == .awaitingRemoteClose && machine.channel == channel)
        machine.remoteClosed()
        #expect(machine.phase == .closing && machine.channel == channel)
        machine.freed()
        #expect(machine.phase == .done && machine.channel == nil)
    }

    @Test func aSetupRequestWaitsWhileAnotherChannelWaitsForItsReply() {
        var machine = settingUp()
        let step4 = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: false)
        #expect(step4 == .waitForTurn)
        #expect(machine.phase == .settingUp)
        // The holder resends the request in flight until its reply comes (EAGAIN).
        let step5 = machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step5 == .send(requests[0], on: channel))
        let step6 = machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step6 == .send(requests[0], on: channel))
    }

    @Test func aRefusedSetupRequestClosesTheChannel() {
        var machine = settingUp()
        _ = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        machine.requestRefused()
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func abandoningAQueuedChannelTakesItOutOfTheQueue() {
        var machine = ChannelStateMachine(setupRequests: requests)
        let step7 = machine.abandon(holdsRequestTurn: false)
        #expect(step7 == .dequeue)
        #expect(machine.phase == .done)
    }

    @Test func aChannelAbandonedWhileOpeningIsClosedAsSoonAsItOpens() {
        var machine = ChannelStateMachine(setupRequests: requests)
        machine.beginOpening()
        let step8 = machine.abandon(holdsRequestTurn: false)
        #expect(step8 == ChannelStateMachine.AbandonAction.none)
        #expect(machine.phase == .opening)
        let step9 = machine.opened(channel)
        #expect(step9 == .close)
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func aChannelAbandonedWhileWaitingForARequestReplyClosesOnlyAfterTheReply() {
        var machine = settingUp()
        let step10 = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step10 == .send(requests[0], on: channel))
        _ = machine.abandon(holdsRequestTurn: true)
        // Still waiting: libssh2 1.10 would give the reply to the next channel's request.
        #expect(machine.phase == .settingUp)
        let step11 = machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step11 == .send(requests[0], on: channel))
        machine.requestAccepted()
        // The reply came and the turn was given back: no further request is sent.
        let step12 = machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step12 == .finished)
        #expect(machine.phase == .closing)
    }

    @Test func aChannelAbandonedDuringSetupWithoutTheRequestTurnClosesAtOnce() {
        var machine = settingUp()
        _ = machine.abandon(holdsRequestTurn: false)
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func abandoningARunningOrEndingChannelClosesIt() {
        var machine = running()
        _ = machine.abandon(holdsRequestTurn: false)
        #expect(machine.phase == .closing)
        var ending = running()
        ending.outputEnded()
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .closing)
        // Closing and done stay where they are.
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .closing)
        ending.freed()
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .done)
    }

    @Test func aRefusedOpenGoesBackToTheQueueOnlyWhenTheLoopRequeuedIt() {
        var retried = ChannelStateMachine(setupRequests: requests)
        retried.beginOpening()
        retried.openFailed(retry: true)
        #expect(retried.phase == .queued)
        var failed = ChannelStateMachine(setupRequests: requests)
        failed.beginOpening()
        failed.openFailed(retry: false)
        #expect(failed.phase == .done)
    }

    @Test func transitionsThatDoNotApplyToTheStateChangeNothing() {
        var machine = ChannelStateMachine(setupRequests: requests)
        machine.outputEnded()
        machine.remoteClosed()
        machine.freed()
        machine.requestAccepted()
        #expect(machine.phase == .queued)
        var live = running()
        live.remoteClosed()  // only after the output ended
        live.freed()
        #expect(live.phase == .running)
    }

    @Test func aLostConnectionEndsEveryStateAndTellsWhetherAnythingHadBeenSent() {
        var queued = ChannelStateMachine(setupRequests: requests)
        let step13 = queued.connectionLost()
        #expect(step13)
        var opening = ChannelStateMachine(setupRequests: requests)
        opening.beginOpening()
        let step14 = opening.connectionLost()
        #expect(step14)
        var setUp = settingUp()
        let setUpLost = setUp.connectionLost()
        #expect(!setUpLost)
        var live = running()
        let liveLost = live.connectionLost()
        #expect(!liveLost)
        for machine in [queued, opening, setUp, live] { #expect(machine.phase == .done && machine.channel == nil) }
    }
}
