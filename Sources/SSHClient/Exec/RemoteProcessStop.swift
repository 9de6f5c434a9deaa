/// A command's or a shell's stop: why it was asked for, and whether the kill runs. The one
/// decision of when and how both kinds stop their remote processes; the kill itself is
/// ``ChannelOperation/killRemoteProcesses(of:reason:command:done:)`` (the script: ``ProcessKill``).
struct RemoteProcessStop {
    /// Why the stop was asked for; nil until it is.
    private(set) var reason: SSHError?
    /// Whether the kill script was started; its end then ends the stop.
    private(set) var killStarted = false
    /// Whether the kill script runs now.
    private(set) var killRunning = false

    /// What to do about a requested stop now.
    enum Decision: Equatable {
        /// Kill every process of the session that `pid` leads.
        case kill(pid: Int)
        /// The PID line has not come yet: decide again when output arrives.
        case wait
        /// Nothing can be signalled: close the channel and end with this error.
        case giveUp(SSHError)
    }

    /// Records the stop's reason; false when a stop was already asked for.
    mutating func request(_ reason: SSHError) -> Bool {
        guard self.reason == nil else { return false }
        self.reason = reason
        return true
    }

    /// Decides what a requested stop does, once the kill has not started yet.
    ///
    /// - Parameters:
    ///   - pid: the PID the wrapper reported, if it did and the channel still runs.
    ///   - searchingPID: the PID line may still come.
    ///   - outputEnded: stdout ended (the shell is gone), or no PID was ever asked for.
    ///   - hangsUpOnClose: the channel has a PTY, whose close sends SIGHUP to its job: without a
    ///     PID, closing it is the stop. Without a PTY a command can outlive its channel, so a
    ///     search given up on (a start-up file printed too much) must not be called stopped.
    func decide(pid: Int?, searchingPID: Bool, outputEnded: Bool, hangsUpOnClose: Bool, command: String) -> Decision {
        guard let reason else { return .wait }
        if let pid { return .kill(pid: pid) }
        if outputEnded || hangsUpOnClose { return .giveUp(reason) }
        if !searchingPID { return .giveUp(.stopUnverified(command: command, reason: Self.noPID)) }
        return .wait
    }

    /// Why a command whose PID search was given up on cannot be called stopped.
    static let noPID = "it never reported its PID (start-up files printed too much first), so it could not be signalled"

    /// The kill script started.
    mutating func killBegan() {
        killStarted = true
        killRunning = true
    }

    /// The kill script ended.
    mutating func killEnded() { killRunning = false }
}

extension ChannelOperation {
    /// Stops every process of the command or terminal that reported `pid` (see ``ProcessKill``)
    /// over a fresh control channel, then calls `done` with what is left and the error the stop
    /// ends with: `reason` when everything stopped, else ``SSHError/stopFailed(command:survivors:commandLines:)`` (or
    /// ``SSHError/stopUnverified(command:reason:)``).
    func killRemoteProcesses(
        of pid: Int, reason: SSHError, command: String,
        done: @escaping (ProcessKill.Outcome, SSHError) -> Void
    ) {
        loop.stopProcesses(of: pid, command: command) { outcome in
            done(outcome, ProcessKill.error(outcome, reason: reason, command: command, pid: pid))
        }
    }
}
