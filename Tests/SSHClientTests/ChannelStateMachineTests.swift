import Testing

@testable import SSHClient

/// A channel's life cycle as a value: every transition, without SSH. The channel pointer is a
/// stand-in the machine only carries, never calls.
@Suite struct ChannelStateMachineTests {
    private let channel = LibSSH2Channel(OpaquePointer(bitPattern: 0x1000)!)
    private let requests: [ChannelSetupRequest] = [.pty(terminal: "xterm", modes: [0], columns: 80, rows: 24), .exec("true")]

    private func settingUp() throws -> ChannelStateMachine {
        var machine = ChannelStateMachine(setupRequests: requests)
        try machine.beginOpening()
        _ = try machine.opened(channel)
        return machine
    }

    private func running() throws -> ChannelStateMachine {
        var machine = ChannelStateMachine(setupRequests: [])
        try machine.beginOpening()
        _ = try machine.opened(channel)
        _ = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        return machine
    }

    @Test func aChannelWalksEveryPhaseFromQueueToDoneCarryingItsChannelWhileItHasOne() throws {
        var machine = ChannelStateMachine(setupRequests: requests)
        #expect(machine.phase == .queued && machine.channel == nil)
        try machine.beginOpening()
        #expect(machine.phase == .opening && machine.channel == nil)
        let step1 = try machine.opened(channel)
        #expect(step1 == .setUp)
        #expect(machine.phase == .settingUp && machine.channel == channel)
        for request in requests {
            let step2 = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
            #expect(step2 == .send(request, on: channel))
            try machine.requestAccepted()
        }
        let step3 = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step3 == .finished)
        #expect(machine.phase == .running && machine.channel == channel)
        try machine.outputEnded()
        #expect(machine.phase == .awaitingRemoteClose && machine.channel == channel)
        try machine.remoteClosed()
        #expect(machine.phase == .closing && machine.channel == channel)
        try machine.freed()
        #expect(machine.phase == .done && machine.channel == nil)
    }

    @Test func aSetupRequestWaitsWhileAnotherChannelWaitsForItsReply() throws {
        var machine = try settingUp()
        let step4 = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: false)
        #expect(step4 == .waitForTurn)
        #expect(machine.phase == .settingUp)
        // The holder resends the request in flight until its reply comes (EAGAIN).
        let step5 = try machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step5 == .send(requests[0], on: channel))
        let step6 = try machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step6 == .send(requests[0], on: channel))
    }

    @Test func aRefusedSetupRequestClosesTheChannel() throws {
        var machine = try settingUp()
        _ = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        try machine.requestRefused()
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func abandoningAQueuedChannelTakesItOutOfTheQueue() throws {
        var machine = ChannelStateMachine(setupRequests: requests)
        let step7 = machine.abandon(holdsRequestTurn: false)
        #expect(step7 == .dequeue)
        #expect(machine.phase == .done)
    }

    @Test func aChannelAbandonedWhileOpeningIsClosedAsSoonAsItOpens() throws {
        var machine = ChannelStateMachine(setupRequests: requests)
        try machine.beginOpening()
        let step8 = machine.abandon(holdsRequestTurn: false)
        #expect(step8 == ChannelStateMachine.AbandonAction.none)
        #expect(machine.phase == .opening)
        let step9 = try machine.opened(channel)
        #expect(step9 == .close)
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func aChannelAbandonedWhileWaitingForARequestReplyClosesOnlyAfterTheReply() throws {
        var machine = try settingUp()
        let step10 = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step10 == .send(requests[0], on: channel))
        _ = machine.abandon(holdsRequestTurn: true)
        // Still waiting: libssh2 1.10 would give the reply to the next channel's request.
        #expect(machine.phase == .settingUp)
        let step11 = try machine.nextSetupStep(holdsRequestTurn: true, requestTurnIsFree: false)
        #expect(step11 == .send(requests[0], on: channel))
        try machine.requestAccepted()
        // The reply came and the turn was given back: no further request is sent.
        let step12 = try machine.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        #expect(step12 == .finished)
        #expect(machine.phase == .closing)
    }

    @Test func aChannelAbandonedDuringSetupWithoutTheRequestTurnClosesAtOnce() throws {
        var machine = try settingUp()
        _ = machine.abandon(holdsRequestTurn: false)
        #expect(machine.phase == .closing && machine.channel == channel)
    }

    @Test func abandoningARunningOrEndingChannelClosesIt() throws {
        var machine = try running()
        _ = machine.abandon(holdsRequestTurn: false)
        #expect(machine.phase == .closing)
        var ending = try running()
        try ending.outputEnded()
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .closing)
        // Closing and done stay where they are.
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .closing)
        try ending.freed()
        _ = ending.abandon(holdsRequestTurn: false)
        #expect(ending.phase == .done)
    }

    @Test func aRefusedOpenGoesBackToTheQueueOnlyWhenTheLoopRequeuedIt() throws {
        var retried = ChannelStateMachine(setupRequests: requests)
        try retried.beginOpening()
        try retried.openFailed(retry: true)
        #expect(retried.phase == .queued)
        var failed = ChannelStateMachine(setupRequests: requests)
        try failed.beginOpening()
        try failed.openFailed(retry: false)
        #expect(failed.phase == .done)
    }

    /// In a release build; a debug build stops at the first one (`assertionFailure`).
    @Test func transitionsThatDoNotApplyToTheStateAreRefusedNamingTheEventAndThePhase() throws {
        var machine = ChannelStateMachine(setupRequests: requests, trapsOnViolation: false)
        #expect(throws: ChannelStateViolation(event: "the end of the output", phase: .queued)) { try machine.outputEnded() }
        #expect(throws: ChannelStateViolation(event: "the remote close", phase: .queued)) { try machine.remoteClosed() }
        #expect(throws: ChannelStateViolation(event: "a freed channel", phase: .queued)) { try machine.freed() }
        #expect(throws: ChannelStateViolation(event: "an accepted request", phase: .queued)) { try machine.requestAccepted() }
        #expect(throws: ChannelStateViolation(event: "an opened channel", phase: .queued)) { try machine.opened(channel) }
        #expect(machine.phase == .queued)
        try machine.beginOpening()
        #expect(throws: ChannelStateViolation(event: "the open turn", phase: .opening)) { try machine.beginOpening() }
        var live = ChannelStateMachine(setupRequests: [], trapsOnViolation: false)
        try live.beginOpening()
        _ = try live.opened(channel)
        _ = try live.nextSetupStep(holdsRequestTurn: false, requestTurnIsFree: true)
        // The remote close counts only after the output ended.
        #expect(throws: ChannelStateViolation(event: "the remote close", phase: .running)) { try live.remoteClosed() }
        #expect(throws: ChannelStateViolation(event: "a freed channel", phase: .running)) { try live.freed() }
        #expect(live.phase == .running)
        #expect(ChannelStateViolation(event: "the remote close", phase: .running).description == "the remote close while running")
    }

    @Test func theEndOfTheOutputAfterAnAbandonChangesNothing() throws {
        var machine = try running()
        _ = machine.abandon(holdsRequestTurn: false)
        try machine.outputEnded()
        #expect(machine.phase == .closing)
    }

    @Test func aLostConnectionEndsEveryStateAndTellsWhetherAnythingHadBeenSent() throws {
        var queued = ChannelStateMachine(setupRequests: requests)
        let step13 = queued.connectionLost()
        #expect(step13)
        var opening = ChannelStateMachine(setupRequests: requests)
        try opening.beginOpening()
        let step14 = opening.connectionLost()
        #expect(step14)
        var setUp = try settingUp()
        let setUpLost = setUp.connectionLost()
        #expect(!setUpLost)
        var live = try running()
        let liveLost = live.connectionLost()
        #expect(!liveLost)
        for machine in [queued, opening, setUp, live] { #expect(machine.phase == .done && machine.channel == nil) }
    }
}
