import Foundation
import Platform
import SSHClient
import Synchronization

/// A TCP proxy on 127.0.0.1 in front of a server, that can fail the way networks fail: cut every
/// connection, black-hole traffic (no reset, nothing gets through), limit the rate and add latency.
///
/// One thread moves the bytes of every connection with `poll`. Faults apply to connections
/// already open and to new ones alike, in both directions.
///
/// ```swift
/// let proxy = try FaultProxy(targetPort: server.port)
/// proxy.setLink(.init(bytesPerSecond: 1_250_000, latency: .milliseconds(25)))  // 10 Mbit/s, 50 ms RTT
/// proxy.setBlackHole(true)     // a tunnel, a sleeping laptop: nothing moves, nothing is reset
/// proxy.cutAll()               // a NAT box forgot us: every connection is reset
/// ```
public final class FaultProxy: @unchecked Sendable {
    /// The shape of the link: rate and one-way latency, the same in both directions.
    public struct Link: Sendable, Equatable {
        /// Bytes per second in each direction; nil is unlimited.
        public var bytesPerSecond: Int?
        /// Added to every byte's trip in each direction (the round trip gains twice this).
        public var latency: Duration

        /// A link with the given rate (nil: unlimited) and one-way latency.
        public init(bytesPerSecond: Int? = nil, latency: Duration = .zero) {
            self.bytesPerSecond = bytesPerSecond
            self.latency = latency
        }
    }

    /// The port clients connect to.
    public let port: Int
    /// The server's port on 127.0.0.1.
    public let targetPort: Int

    private struct Controls {
        var link = Link()
        var blackHole = false
        /// Cuts asked for and cuts made: ``cutAll()`` waits for its own.
        var cutsRequested = 0
        var cutsMade = 0
        var stopped = false
        var accepted = 0
        var forwardedBytes = 0
    }

    private let controls = Mutex(Controls())
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a free port of 127.0.0.1 and starts forwarding to `targetPort`.
    public init(targetPort: Int, link: Link = Link()) throws {
        self.targetPort = targetPort
        let address = SystemCall.loopback(port: 0)
        let fd = try SystemCall.socket(for: address)
        do {
            try SystemCall.bind(fd, to: address)
            try SystemCall.listen(fd)
            try SystemCall.setNonblocking(fd)
            port = try SystemCall.localPort(of: fd)
            wake = try SystemCall.pipe()
        } catch {
            SystemCall.close(fd)
            throw TestServerError.startFailed("fault proxy: cannot listen on 127.0.0.1: \(error)")
        }
        listener = fd
        controls.withLock { $0.link = link }
        let thread = Thread { [self] in run() }
        thread.name = "rws-fault-proxy"
        thread.start()
    }

    deinit { stop() }

    /// Changes the rate and latency of every connection from now on.
    public func setLink(_ link: Link) {
        controls.withLock { $0.link = link }
        signalWake()
    }

    /// Stops (true) or resumes (false) all traffic without closing anything: bytes wait where they
    /// are, TCP flow control stalls the senders, no reset is sent. New connections are accepted
    /// but get no bytes through either.
    public func setBlackHole(_ on: Bool) {
        controls.withLock { $0.blackHole = on }
        signalWake()
    }

    /// Resets every open connection (both sides see ECONNRESET) and returns once they are reset,
    /// so that nothing sent after it travels the old connections; new connections still work.
    public func cutAll() {
        let cut = controls.withLock { controls -> Int in
            controls.cutsRequested += 1
            return controls.cutsRequested
        }
        signalWake()
        // The proxy's thread resets at its next pass, a poll away.
        while controls.withLock({ $0.cutsMade < cut && !$0.stopped }) { Thread.sleep(forTimeInterval: 0.001) }
    }

    /// How many connections the proxy accepted so far.
    public var acceptedConnections: Int { controls.withLock { $0.accepted } }

    /// How many bytes it forwarded so far, both directions.
    public var forwardedBytes: Int { controls.withLock { $0.forwardedBytes } }

    /// Closes every connection and the listener, and waits for the proxy's thread to end.
    public func stop() {
        let first = controls.withLock { controls -> Bool in
            defer { controls.stopped = true }
            return !controls.stopped
        }
        guard first else { return }
        signalWake()
        finished.wait()
    }

    private func signalWake() {
        var byte: UInt8 = 1
        // Nil (a full pipe) means a wake-up is pending already.
        _ = try? withUnsafeBytes(of: &byte) { buffer throws(SystemCallError) in try SystemCall.write(wake.write, from: buffer) }
    }

    // MARK: The proxy thread

    private func run() {
        var pairs: [ProxiedConnection] = []
        while true {
            let state = controls.withLock { $0 }
            if state.stopped { break }
            if state.cutsRequested > state.cutsMade {
                pairs.forEach { $0.reset() }
                pairs = []
                controls.withLock { $0.cutsMade = state.cutsRequested }
            }
            let now = ContinuousClock.now
            var moved = 0
            for pair in pairs { moved += pair.step(link: state.link, blackHole: state.blackHole, now: now) }
            if moved > 0 { controls.withLock { $0.forwardedBytes += moved } }
            pairs.removeAll { $0.isFinished }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            for pair in pairs { fds += pair.pollDescriptors(blackHole: state.blackHole) }
            let timeout = pairs.compactMap { $0.nextTimer(link: state.link, blackHole: state.blackHole, now: now) }.min()
            do {
                try SystemCall.poll(&fds, timeout: timeout.map { max($0, .milliseconds(1)) })
            } catch {
                preconditionFailure("fault proxy: \(error)")
            }
            if fds[1].revents != 0 { drainWake() }
            if fds[0].revents != 0, let pair = acceptOne() {
                pairs.append(pair)
                controls.withLock { $0.accepted += 1 }
            }
        }
        pairs.forEach { $0.reset() }
        SystemCall.close(listener)
        SystemCall.close(wake.read)
        SystemCall.close(wake.write)
        finished.signal()
    }

    private func acceptOne() -> ProxiedConnection? {
        // A connection that went away before it was accepted, or a target that refuses: nothing to proxy.
        guard let client = try? SystemCall.accept(listener) else { return nil }
        let target = SystemCall.loopback(port: targetPort)
        guard let server = try? SystemCall.socket(for: target) else {
            SystemCall.close(client)
            return nil
        }
        do {
            guard try SystemCall.connect(server, to: target) else { throw SystemCallError("connect", code: EINPROGRESS) }
            for fd in [client, server] {
                try SystemCall.setNonblocking(fd)
                try SystemCall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            }
        } catch {
            SystemCall.close(client)
            SystemCall.close(server)
            return nil
        }
        return ProxiedConnection(client: client, server: server)
    }

    private func drainWake() {
        SystemCall.drain(wake.read)
    }
}

/// One client connection and its connection to the server: two directions of queued bytes.
private final class ProxiedConnection {
    private let client: Int32
    private let server: Int32
    private let up: Direction
    private let down: Direction
    private(set) var isFinished = false

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
        up = Direction(source: client, sink: server)
        down = Direction(source: server, sink: client)
    }

    /// Moves what the link allows now; returns the bytes delivered.
    func step(link: FaultProxy.Link, blackHole: Bool, now: ContinuousClock.Instant) -> Int {
        guard !isFinished else { return 0 }
        var moved = 0
        for direction in [up, down] {
            if !blackHole { direction.receive(latency: link.latency, now: now) }
            if !blackHole { moved += direction.deliver(rate: link.bytesPerSecond, now: now) }
            direction.propagateEndIfDone()
        }
        if up.isBroken || down.isBroken {
            reset()
        } else if up.isDone && down.isDone {
            SystemCall.close(client)
            SystemCall.close(server)
            isFinished = true
        }
        return moved
    }

    func pollDescriptors(blackHole: Bool) -> [pollfd] {
        guard !isFinished, !blackHole else { return [] }
        var events: [Int32: Int16] = [client: 0, server: 0]
        for direction in [up, down] {
            if direction.wantsToReceive { events[direction.source]! |= Int16(POLLIN) }
            if direction.sinkBlocked { events[direction.sink]! |= Int16(POLLOUT) }
        }
        return events.filter { $0.value != 0 }.map { pollfd(fd: $0.key, events: $0.value, revents: 0) }
    }

    /// When the link lets the next queued bytes go, if they wait for time rather than the socket.
    func nextTimer(link: FaultProxy.Link, blackHole: Bool, now: ContinuousClock.Instant) -> Duration? {
        guard !isFinished, !blackHole else { return nil }
        return [up, down].compactMap { $0.nextTimer(rate: link.bytesPerSecond, now: now) }.min()
    }

    /// Closes both sockets with a reset (SO_LINGER 0), as a middlebox that dropped the connection.
    func reset() {
        guard !isFinished else { return }
        for fd in [client, server] {
            // Without the option the close is an orderly one: the peer still sees the connection end.
            try? SystemCall.setResetOnClose(fd)
            SystemCall.close(fd)
        }
        isFinished = true
    }
}

/// Bytes read from `source`, held until their delivery time, written to `sink` at the link's rate.
private final class Direction {
    let source: Int32
    let sink: Int32
    private var queue: [(deliverAt: ContinuousClock.Instant, bytes: [UInt8])] = []
    private var queuedBytes = 0
    private var sourceEnded = false
    private var endPropagated = false
    private(set) var sinkBlocked = false
    private(set) var isBroken = false
    private var tokens = 0.0
    private var lastRefill = ContinuousClock.now
    private static let queueLimit = 512 * 1024
    private var buffer = [UInt8](repeating: 0, count: 32 * 1024)

    init(source: Int32, sink: Int32) {
        self.source = source
        self.sink = sink
    }

    var wantsToReceive: Bool { !sourceEnded && !isBroken && queuedBytes < Self.queueLimit }
    var isDone: Bool { endPropagated || isBroken }

    func receive(latency: Duration, now: ContinuousClock.Instant) {
        while wantsToReceive {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { bytes throws(SystemCallError) in try SystemCall.read(source, into: bytes) }
            } catch {
                isBroken = true
                return
            }
            guard let count else { return }  // nothing more for now
            if count > 0 {
                queue.append((now + latency, Array(buffer[0..<count])))
                queuedBytes += count
            } else {
                sourceEnded = true
            }
        }
    }

    func deliver(rate: Int?, now: ContinuousClock.Instant) -> Int {
        refill(rate: rate, now: now)
        var delivered = 0
        sinkBlocked = false
        while let head = queue.first, head.deliverAt <= now {
            var allowed = head.bytes.count
            if rate != nil { allowed = min(allowed, Int(tokens)) }
            guard allowed > 0 else { break }
            let outcome: Int?
            do {
                outcome = try head.bytes.withUnsafeBytes { bytes throws(SystemCallError) in
                    try SystemCall.send(sink, from: UnsafeRawBufferPointer(rebasing: bytes.prefix(allowed)))
                }
            } catch {
                isBroken = true
                break
            }
            guard let sent = outcome else {
                sinkBlocked = true
                break
            }
            delivered += sent
            queuedBytes -= sent
            if rate != nil { tokens -= Double(sent) }
            if sent == head.bytes.count {
                queue.removeFirst()
            } else {
                queue[0].bytes.removeFirst(sent)
            }
        }
        return delivered
    }

    func propagateEndIfDone() {
        guard sourceEnded, queue.isEmpty, !endPropagated else { return }
        // A failure means the sink is gone: its own read or send reports that.
        try? SystemCall.shutdown(sink, Int32(SHUT_WR))
        endPropagated = true
    }

    func nextTimer(rate: Int?, now: ContinuousClock.Instant) -> Duration? {
        guard let head = queue.first, !sinkBlocked else { return nil }
        if head.deliverAt > now { return head.deliverAt - now }
        if let rate, tokens < 1 { return .microseconds(Int64(max(1000, 1_000_000 / max(1, rate)))) }
        return .zero
    }

    private func refill(rate: Int?, now: ContinuousClock.Instant) {
        guard let rate else { return }
        let elapsed = now - lastRefill
        lastRefill = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // A burst of 20 ms of traffic: smooth enough for RTT-sized measurements.
        tokens = min(tokens + Double(rate) * seconds, max(4096, Double(rate) / 50))
    }
}

extension TestSSHServer {
    /// A configuration that reaches this server through `proxy`: the server's host key is trusted
    /// under the proxy's address too.
    public func configuration(through proxy: FaultProxy, deadPeerTimeout: Duration = .seconds(20)) throws -> SSHConnectionConfiguration {
        var configuration = configuration(deadPeerTimeout: deadPeerTimeout)
        configuration.port = proxy.port
        configuration.knownHostsFile = try knownHosts(through: proxy)
        return configuration
    }

    /// The `rws` flags that reach this server through `proxy` (see ``rwsFlags``). With
    /// `keepalive`, their configuration file sets `ServerAliveInterval` and `ServerAliveCountMax`
    /// to it, so rws finds a black-holed link dead within interval × count seconds instead of
    /// its default 20: a test of what follows the loss need not wait for that default.
    public func rwsFlags(through proxy: FaultProxy, keepalive: (interval: Int, count: Int)? = nil) throws -> [String] {
        var configFile = directory.path + "/empty_ssh_config"
        if let keepalive {
            configFile = directory.path + "/ssh_config_alive_\(keepalive.interval)x\(keepalive.count)"
            try "Host *\n    ServerAliveInterval \(keepalive.interval)\n    ServerAliveCountMax \(keepalive.count)\n"
                .write(toFile: configFile, atomically: true, encoding: .utf8)
        }
        return [
            "--host", "\(user)@127.0.0.1:\(proxy.port)", "--identity", clientKeyPath, "--known-hosts", try knownHosts(through: proxy),
            "-F", configFile,
        ]
    }

    /// A known_hosts file vouching for this server's key under the proxy's address.
    private func knownHosts(through proxy: FaultProxy) throws -> String {
        let known = try String(contentsOfFile: knownHostsPath, encoding: .utf8)
        let path = directory.appendingPathComponent("known_hosts_proxy_\(proxy.port)").path
        try known.replacingOccurrences(of: "[127.0.0.1]:\(port) ", with: "[127.0.0.1]:\(proxy.port) ")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
