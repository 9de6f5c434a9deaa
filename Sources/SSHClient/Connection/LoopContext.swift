import Foundation
import Platform

/// What one connection's I/O thread owns: the socket, the libssh2 session, the channels and the
/// turns libssh2 1.10 allows one at a time. Only that thread reaches it — it is created there and
/// handed to submitted work and to channel operations — so it is not `Sendable`.
final class LoopContext {
    /// The handle other threads hold.
    let handle: ConnectionLoop
    let transport: SSHTransport
    private let socket: TCPSocket
    private var operations: [any ChannelOperation] = []
    private var queue: [any ChannelOperation] = []
    private var openHolder: (any ChannelOperation)?
    /// The keepalive; it holds libssh2's channel-open state machine while in flight, like ``openHolder``.
    let probe = LivenessProbe()
    /// Back-to-back keepalives asked for, one burst at a time: a benchmark's
    /// (``SSHConnection/sendKeepalives(_:count:)``) or one timed probe (``SSHConnection/probeRoundTrip()``).
    var keepaliveBursts: [KeepaliveBurst] = []
    /// The one channel allowed to wait for a request reply (libssh2 1.10 mixes up concurrent replies).
    var requestHolder: (any ChannelOperation)?
    /// Ports the box listens on for this connection (`ssh -R`).
    private var listeners: [RemoteListener] = []
    /// A listener whose global request (listen or cancel) is in flight: like ``openHolder``, no
    /// channel opens and no keepalive starts meanwhile, so that one request at a time waits on the server.
    var listenHolder: RemoteListener?
    private var channelsInUse = 0
    /// Set when the server refused an open: admit nothing new until a channel is freed.
    private var admissionHeld = false
    private var lossError: SSHError?
    private var closeRequested = false
    /// Set when a close began: until then, the stops it started may finish (see ``closingIsDone()``).
    private var closeDeadline: ContinuousClock.Instant?
    /// The kill scripts running now, for the report of a close that stops waiting for them.
    var stopsRunning = RunningStops()
    private var wasWaitingOnPeer = false
    /// Socket bytes that no operation could take (every channel paused, or none exists) would make
    /// `poll` return at once forever, so read interest is dropped — but only until anything
    /// changes: new work, a wake-up, or a pass that moved. See ``noteReadableSocket()``.
    private var readInterestSuppressed = false
    /// Shared read buffer for every channel of the session.
    var scratch = [UInt8](repeating: 0, count: 256 * 1024)
    /// The connection's SFTP session, opened on first use and kept for the connection's life.
    var sftp: SFTPChannel?
    /// Why the server refused the SFTP subsystem, once it has.
    var sftpRefusal: String?

    /// The server ends the connection when a command exits while another channel waits for its
    /// command (dropbear 2022.82 to 2024.85, docs/servers.md): see ``aStopScriptRuns``.
    private let abortsOnOverlappingCommands: Bool

    var configuration: SSHConnectionConfiguration { handle.configuration }

    private init(handle: ConnectionLoop, socket: TCPSocket, transport: SSHTransport, serverIdentification: String) {
        self.handle = handle
        self.socket = socket
        self.transport = transport
        abortsOnOverlappingCommands = SSHConnection.abortsOnOverlappingCommands(identification: serverIdentification)
    }

    /// The I/O thread's body: establishes the session, then serves until the connection ends.
    static func run(_ handle: ConnectionLoop) {
        handle.threadStarted()
        SystemCall.nameCurrentThread("rws-ssh-io")
        let context: LoopContext
        do {
            let session = try ConnectionEstablishment(configuration: handle.configuration, cancellation: handle.establishing).establish()
            context = LoopContext(
                handle: handle, socket: session.socket, transport: session.transport, serverIdentification: session.identification ?? "")
            handle.established(serverIdentification: session.identification, roundTripBound: session.roundTripBound)
        } catch {
            handle.failedToEstablish(error)
            return
        }
        context.serve()
    }

    /// Begins closing the connection (see ``closingIsDone()``).
    func requestClose() { closeRequested = true }

    // MARK: Services for operations

    /// Queues a channel operation; control operations go first.
    func enqueue(_ operation: any ChannelOperation) {
        if operation.isControl {
            let firstNormal = queue.firstIndex { !$0.isControl } ?? queue.endIndex
            queue.insert(operation, at: firstNormal)
        } else {
            queue.append(operation)
        }
    }

    /// Runs a channel the server opened (a forwarded connection): it needs no open turn.
    func adopt(_ operation: any ChannelOperation) {
        channelsInUse += 1
        operations.append(operation)
        operation.beginOpening()
    }

    /// Starts a remote listener; it runs until cancelled or the connection ends.
    func add(_ listener: RemoteListener) {
        listeners.append(listener)
    }

    /// Whether a new global request or channel open may start now.
    var openTurnIsFree: Bool { openHolder == nil && listenHolder == nil && !probe.inFlight }

    func dequeue(_ operation: any ChannelOperation) {
        queue.removeAll { $0 === operation }
    }

    func openFinished(_ operation: any ChannelOperation) {
        if openHolder === operation { openHolder = nil }
    }

    func channelFreed(_ operation: any ChannelOperation) {
        channelsInUse -= 1
        configuration.logger.trace("channel freed", metadata: ["inUse": "\(channelsInUse)", "queued": "\(queue.count)"])
        admissionHeld = false
        operations.removeAll { $0 === operation }
    }

    /// The server refused a channel although we stayed under our limit: its limit is lower, or it
    /// has not yet let go of a closed one. Retry once another channel is freed; false if none is open.
    func requeueAfterRefusal(_ operation: any ChannelOperation) -> Bool {
        guard channelsInUse > 1 else { return false }
        channelsInUse -= 1
        operations.removeAll { $0 === operation }
        queue.insert(operation, at: 0)
        admissionHeld = true
        return true
    }

    /// One line per channel, admitted ones first, then the queue and who holds the open and
    /// request turns (``SSHConnection/channelDiagnostics()``).
    var channelDiagnostics: [String] {
        let turns = "open turn: \(openHolder?.diagnostics ?? "free"), request turn: \(requestHolder?.diagnostics ?? "free")"
        return operations.map(\.diagnostics) + queue.map { "queued: \($0.diagnostics)" } + [turns]
    }

    /// Marks the connection lost; every operation fails with `error` at the end of this pass.
    func lose(_ error: SSHError) {
        if lossError == nil {
            configuration.logger.error("connection lost", metadata: ["error": "\(error)"])
            switch error {
            case .connectionLost: lossError = error
            case .libssh2(let operation, _, let message): lossError = .connectionLost(reason: "\(operation): \(message)")
            default: lossError = .connectionLost(reason: error.description)
            }
        }
    }

    // MARK: The loop

    private func serve() {
        while true {
            runInbox()
            if lossError != nil || closeRequested && closingIsDone() { break }
            var passes = 0
            while runPass() && passes < 64 { passes += 1 }
            let fired = checkDeadlines()
            if lossError != nil || closeRequested && closingIsDone() { break }
            // A fired deadline queued work (a kill): run it now, not after the next poll.
            waitForEvents(busy: passes == 64 || fired)
        }
        teardown()
    }

    private func runInbox() {
        let work = handle.takeWork()
        if !work.isEmpty { readInterestSuppressed = false }
        for item in work { item(self) }
    }

    /// One sweep over every channel; true when anything moved. libssh2 drains all pending packets
    /// into per-channel queues on any read, so every channel is visited, not only the one polled.
    ///
    /// Bytes read from the socket count as progress even when no operation says it moved: a read
    /// on one channel (or stream) queues packets for the others, which only the next pass sees.
    private func runPass() -> Bool {
        let receivedBefore = transport.context.lastReceive
        var progressed = admit()
        if probe.advance(transport) { progressed = true }
        if runKeepaliveBurst() { progressed = true }
        for listener in listeners {
            if listener.advance() { progressed = true }
        }
        listeners.removeAll { $0.hasEnded }
        if lossError != nil { return false }
        for operation in operations {
            if operation.advance() { progressed = true }
            if lossError != nil { return false }
        }
        if transport.context.lastReceive != receivedBefore { progressed = true }
        if progressed { readInterestSuppressed = false }
        return progressed
    }

    /// A close first stops what runs (each operation's ``ChannelEvent/connectionClosing``:
    /// commands and shells kill their remote processes over control channels), then lets those
    /// stops finish, bounded by the grace period, before tearing down: a disconnect alone leaves
    /// a silent command running on OpenSSH.
    private func closingIsDone() -> Bool {
        let wait = configuration.terminationGracePeriod + .seconds(3)
        if closeDeadline == nil {
            closeDeadline = .now + wait
            for operation in operations + queue { operation.handle(.connectionClosing) }
        }
        let stopsInFlight = (operations + queue).contains { $0.isControl }
        guard stopsInFlight else { return true }
        guard ContinuousClock.now >= closeDeadline! else { return false }
        // Bounded, and said: the stops still running are reported by PID, never called done.
        let unfinished = stopsRunning.unfinished(after: wait)
        for stop in unfinished {
            configuration.logger.warning("closing before a stop finished", metadata: ["pid": "\(stop.pid)"])
        }
        handle.noteUnfinishedStops(unfinished)
        return true
    }

    /// Whether a stop's script (a control operation) may still exit, on a server that aborts on
    /// overlapping commands. The script exits soon, by design, and a channel opened meanwhile
    /// could still wait for its command then: that server would end the whole connection. The
    /// server closes the script's channel once it has reaped the script, so from then on
    /// (``ChannelStateMachine/Phase/closing``) new channels are safe.
    private var aStopScriptRuns: Bool {
        abortsOnOverlappingCommands
            && operations.contains { $0.isControl && [.opening, .settingUp, .running, .awaitingRemoteClose].contains($0.phase) }
    }

    private func admit() -> Bool {
        var admitted = false
        while openTurnIsFree, !admissionHeld, let next = queue.first {
            // Closing: only the channels that stop what was running.
            if closeDeadline != nil, !next.isControl { break }
            // Control operations go first in the queue, so the rest waits with this one.
            if !next.isControl, aStopScriptRuns { break }
            let limit = next.isControl ? configuration.maxChannels : max(1, configuration.maxChannels - 1)
            guard channelsInUse < limit else { break }
            queue.removeFirst()
            channelsInUse += 1
            openHolder = next
            operations.append(next)
            next.beginOpening()
            admitted = true
        }
        return admitted
    }

    /// Fires due deadlines; true when any fired.
    private func checkDeadlines() -> Bool {
        let now = ContinuousClock.now
        var fired = false
        for operation in operations + queue {
            if let deadline = operation.deadline, deadline <= now {
                operation.deadline = nil
                operation.handle(.deadlineExpired)
                fired = true
            }
        }
        // A connection meant to stay up (a reconnect policy) probes while idle too, as ssh's
        // ServerAliveInterval does: a link that went silent is re-established before the next
        // command would wait out the dead-peer timeout. Without a policy an idle connection stays quiet.
        let keptUp = configuration.reconnect != nil
        let waitingOnPeer =
            keptUp || operations.contains { $0.isWaitingOnPeer } || !queue.isEmpty || listeners.contains { $0.isWaitingOnPeer }
        if waitingOnPeer {
            if !wasWaitingOnPeer { transport.context.lastReceive = now }
            if openHolder == nil, listenHolder == nil,
                probe.isDue(now: now, lastReceive: transport.context.lastReceive, interval: configuration.keepaliveInterval)
            {
                probe.start(transport)
            }
            let silence = now - transport.context.lastReceive
            if silence > configuration.deadPeerTimeout {
                lose(.connectionLost(reason: "the server did not answer for \(silence.shortDescription) (keepalive unanswered)"))
            }
        }
        wasWaitingOnPeer = waitingOnPeer
        return fired
    }

    /// Keepalive probes answered, and whether a keepalive reply sits in the session's queue (nil
    /// when no channel runs to ask through): what the keepalive tests check.
    var keepaliveState: KeepaliveState {
        KeepaliveState(answered: probe.answered, replyQueued: operations.lazy.compactMap(\.lifecycle.sessionHoldsShortPacket).first)
    }

    /// One step of a benchmark's keepalive burst; true when it sent anything.
    private func runKeepaliveBurst() -> Bool {
        guard var burst = keepaliveBursts.first else { return false }
        defer {
            if burst.isDone(probe) {
                keepaliveBursts.removeFirst()
                burst.finish()
            } else {
                keepaliveBursts[0] = burst
            }
        }
        switch burst.kind {
        case .probe:
            guard burst.sent < burst.count, openHolder == nil, listenHolder == nil, probe.isIdle else { return false }
            probe.start(transport)
            burst.sent += 1
            return true
        case .globalRequest:
            return burst.sendGlobalRequests(transport)
        }
    }

    private func waitForEvents(busy: Bool) {
        var timeout = Duration.seconds(1)
        let now = ContinuousClock.now
        for operation in operations + queue {
            if let deadline = operation.deadline { timeout = min(timeout, max(.zero, deadline - now)) }
        }
        if busy { timeout = .zero }
        let directions = transport.blockDirections
        var events: Int16 = readInterestSuppressed ? 0 : Int16(POLLIN)
        if directions.contains(.outbound) { events |= Int16(POLLOUT) }
        let polled: (count: Int, socket: Int16, woken: Bool)
        do {
            polled = try handle.poll(socket: socket.fd, events: events, timeout: timeout)
        } catch {
            // Never a crash in an app embedding the library: the connection ends with the reason.
            return lose(.connectionLost(reason: "waiting for the socket failed (\(error))"))
        }
        handle.counters.polls.add(1, ordering: .relaxed)
        if polled.count <= 0 {
            if timeout > .zero { noteTimedOutPoll() }
            readInterestSuppressed = false
            return
        }
        if polled.woken {
            readInterestSuppressed = false
            // New work may be the reader those socket bytes wait for: run the inbox before judging them.
            return
        }
        if polled.socket & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            noteReadableSocket(hungUp: polled.socket & Int16(POLLHUP | POLLERR) != 0)
        }
    }

    /// A poll that ran to its timeout while a reply sat unread in the socket and an operation
    /// waited for the server is a stall; the tests require that it never happens.
    ///
    /// "Waiting" covers both places a reply can sit unread: the kernel's socket buffer, and
    /// libssh2's per-channel queues, filled by a read on any channel of the session.
    private func noteTimedOutPoll() {
        let waiting = operations.filter { $0.isWaitingOnPeer }
        guard !waiting.isEmpty, socket.pendingBytes > 0 || waiting.contains(where: { $0.hasQueuedInput }) else { return }
        handle.counters.stalledPolls.add(1, ordering: .relaxed)
        configuration.logger.warning(
            "poll timed out with a reply waiting",
            metadata: [
                "bytes": "\(socket.pendingBytes)", "waiting": "\(waiting.filter { $0.hasQueuedInput }.map(\.diagnostics))",
            ])
    }

    /// Bytes nobody reads (every channel paused, or no channel at all) would make poll return at
    /// once forever: stop asking for them until something changes, unless the peer hung up.
    ///
    /// A reset or closed socket (`hungUp`: POLLERR, POLLHUP) ends the connection even with bytes
    /// still unread, such as OpenSSH's host-key announcement on an idle connection: poll reports
    /// those conditions whatever it was asked, so suppressing reads would spin, unaware of the loss.
    private func noteReadableSocket(hungUp: Bool) {
        let before = transport.context.lastReceive
        var passes = 0
        while runPass() && passes < 64 { passes += 1 }
        guard transport.context.lastReceive == before else { return }
        if hungUp || socket.isClosedByPeer {
            lose(.connectionLost(reason: "the server closed the connection"))
        } else {
            readInterestSuppressed = true
        }
    }

    private func teardown() {
        let error = lossError ?? .connectionClosed
        handle.ending(error)
        runInbox()  // work that raced with the end still gets to fail its callers
        let all = operations + queue
        let ended = listeners
        operations = []
        queue = []
        listeners = []
        if lossError == nil {
            var attempts = 0
            while transport.disconnect() == LibSSH2Code.wouldBlock, attempts < 100 { attempts += 1 }
        }
        socket.shutdownBoth()
        transport.free()
        socket.closeDescriptor()
        // Callers learn of the end only now, with libssh2 and OpenSSL done: a caller that exits
        // the process at once must not race the session's teardown (seen as a crash at exit).
        for operation in all { operation.failForConnection(error) }
        for listener in ended { listener.connectionEnded(error) }
        for burst in keepaliveBursts { burst.done.complete(.failure(error)) }
        handle.stoppedServing()
    }
}
