/// A request sent on a fresh channel before it runs: a PTY, a program, a subsystem.
enum ChannelSetupRequest: Equatable {
    case pty(terminal: String, modes: [UInt8], columns: Int, rows: Int)
    case exec(String)
    case shell
    case subsystem(String)
}

/// The life of one channel, as a value: queued → opening → settingUp → running →
/// awaitingRemoteClose → closing → done. The states that have a libssh2 channel carry it.
///
/// Pure: it calls no libssh2 and touches no loop. ``ChannelOperation`` makes the calls each
/// state asks for and reports what they gave through these transitions; what the loop must do
/// comes back as actions. Every channel kind (exec, shell, SFTP, direct-tcpip) runs on it.
///
/// A transition the life cycle does not allow from the current state is a bug in rws, never
/// ignored: it stops a debug build (the tests) at once and throws ``ChannelStateViolation`` in a
/// release build, where the operation ends with an error that names it.
struct ChannelStateMachine {
    /// Where a channel stands, without the channel it carries (for logs and decisions).
    enum Phase: Equatable { case queued, opening, settingUp, running, awaitingRemoteClose, closing, done }

    enum State {
        /// Waits for a channel slot and the session's open turn.
        case queued
        /// The open is in flight; `closeWhenOpen` when the operation was abandoned meanwhile.
        case opening(closeWhenOpen: Bool)
        /// Setup requests go one by one, each waiting for the session's request turn;
        /// `closeWhenSent` when abandoned while its request waited for a reply.
        case settingUp(LibSSH2Channel, nextRequest: Int, closeWhenSent: Bool)
        case running(LibSSH2Channel)
        /// Both output streams ended; the exit status is read after the remote CLOSE.
        case awaitingRemoteClose(LibSSH2Channel)
        /// Being freed, which answers EAGAIN until the remote process exits.
        case closing(LibSSH2Channel)
        case done
    }

    private(set) var state: State = .queued
    private let setupRequests: [ChannelSetupRequest]
    private let trapsOnViolation: Bool

    /// - Parameter trapsOnViolation: stop a debug build on an illegal transition (`assertionFailure`);
    ///   false only for the tests of the error a release build throws.
    init(setupRequests: [ChannelSetupRequest], trapsOnViolation: Bool = true) {
        self.setupRequests = setupRequests
        self.trapsOnViolation = trapsOnViolation
    }

    private func violation(_ event: String) -> ChannelStateViolation {
        let violation = ChannelStateViolation(event: event, phase: phase)
        if trapsOnViolation { assertionFailure("channel life cycle: \(violation)") }
        return violation
    }

    var phase: Phase {
        switch state {
        case .queued: return .queued
        case .opening: return .opening
        case .settingUp: return .settingUp
        case .running: return .running
        case .awaitingRemoteClose: return .awaitingRemoteClose
        case .closing: return .closing
        case .done: return .done
        }
    }

    /// The libssh2 channel, in the states that have one.
    var channel: LibSSH2Channel? {
        switch state {
        case .settingUp(let channel, _, _), .running(let channel), .awaitingRemoteClose(let channel), .closing(let channel):
            return channel
        case .queued, .opening, .done:
            return nil
        }
    }

    // MARK: Opening

    /// The loop gave this channel a slot and the open turn.
    mutating func beginOpening() throws(ChannelStateViolation) {
        guard case .queued = state else { throw violation("the open turn") }
        state = .opening(closeWhenOpen: false)
    }

    /// What the operation does once the open went through.
    enum OpenedAction: Equatable {
        case setUp
        /// Abandoned while opening: free it at once.
        case close
    }

    mutating func opened(_ channel: LibSSH2Channel) throws(ChannelStateViolation) -> OpenedAction {
        guard case .opening(let closeWhenOpen) = state else { throw violation("an opened channel") }
        state = closeWhenOpen ? .closing(channel) : .settingUp(channel, nextRequest: 0, closeWhenSent: false)
        return closeWhenOpen ? .close : .setUp
    }

    /// The open failed; `retry` when the server refused it and the loop put it back in the queue.
    mutating func openFailed(retry: Bool) throws(ChannelStateViolation) {
        guard case .opening = state else { throw violation("a failed open") }
        state = retry ? .queued : .done
    }

    // MARK: Setting up

    /// What to do next while setting up.
    enum SetupAction: Equatable {
        /// Send this request (taking the request turn if not held yet), and report its reply.
        case send(ChannelSetupRequest, on: LibSSH2Channel)
        /// Another channel waits for a reply: libssh2 1.10 would hand it ours.
        case waitForTurn
        /// Setup is over (running, or closing if abandoned): give back the request turn if held.
        case finished
    }

    /// - Parameters:
    ///   - holdsRequestTurn: this channel holds the session's request turn.
    ///   - requestTurnIsFree: no channel holds it.
    mutating func nextSetupStep(holdsRequestTurn: Bool, requestTurnIsFree: Bool) throws(ChannelStateViolation) -> SetupAction {
        guard case .settingUp(let channel, let next, let closeWhenSent) = state else { throw violation("a setup step") }
        if next >= setupRequests.count || closeWhenSent && !holdsRequestTurn {
            state = closeWhenSent ? .closing(channel) : .running(channel)
            return .finished
        }
        guard requestTurnIsFree || holdsRequestTurn else { return .waitForTurn }
        return .send(setupRequests[next], on: channel)
    }

    /// The server accepted the request in flight.
    mutating func requestAccepted() throws(ChannelStateViolation) {
        guard case .settingUp(let channel, let next, let closeWhenSent) = state else { throw violation("an accepted request") }
        state = .settingUp(channel, nextRequest: next + 1, closeWhenSent: closeWhenSent)
    }

    /// The server refused the request in flight: the channel closes.
    mutating func requestRefused() throws(ChannelStateViolation) {
        guard case .settingUp(let channel, _, _) = state else { throw violation("a refused request") }
        state = .closing(channel)
    }

    // MARK: Running and ending

    /// Both output streams reached their end; after an abandon (closing, done) there is nothing left to do.
    mutating func outputEnded() throws(ChannelStateViolation) {
        switch state {
        case .running(let channel): state = .awaitingRemoteClose(channel)
        case .closing, .done: break
        case .queued, .opening, .settingUp, .awaitingRemoteClose: throw violation("the end of the output")
        }
    }

    /// The remote CLOSE came (and with it the exit status, if any).
    mutating func remoteClosed() throws(ChannelStateViolation) {
        guard case .awaitingRemoteClose(let channel) = state else { throw violation("the remote close") }
        state = .closing(channel)
    }

    /// `libssh2_channel_free` went through.
    mutating func freed() throws(ChannelStateViolation) {
        guard case .closing = state else { throw violation("a freed channel") }
        state = .done
    }

    /// What the operation does after ``abandon(holdsRequestTurn:)``.
    enum AbandonAction: Equatable {
        case none
        /// It never left the queue: take it out.
        case dequeue
    }

    /// Ends the channel from this side: no more setup; a channel that exists is closed, as soon
    /// as a reply it waits for has come (libssh2 would give that reply to the next request).
    mutating func abandon(holdsRequestTurn: Bool) -> AbandonAction {
        switch state {
        case .queued:
            state = .done
            return .dequeue
        case .opening:
            state = .opening(closeWhenOpen: true)
        case .settingUp(let channel, let next, _):
            state = holdsRequestTurn ? .settingUp(channel, nextRequest: next, closeWhenSent: true) : .closing(channel)
        case .running(let channel), .awaitingRemoteClose(let channel):
            state = .closing(channel)
        case .closing, .done:
            break
        }
        return .none
    }

    /// The connection died: the channel goes with the session. Returns whether nothing had been
    /// sent on it yet (whatever it was to run never started on the box).
    mutating func connectionLost() -> Bool {
        let beforeStart: Bool
        switch state {
        case .queued, .opening: beforeStart = true
        default: beforeStart = false
        }
        state = .done
        return beforeStart
    }
}

/// A transition a channel's life cycle does not allow where it stands: a bug in rws.
struct ChannelStateViolation: Error, Equatable, CustomStringConvertible {
    /// What was reported: "the remote close".
    let event: String
    /// Where the channel stood.
    let phase: ChannelStateMachine.Phase

    var description: String { "\(event) while \(phase)" }
}
