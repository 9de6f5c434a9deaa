import Foundation
import Platform
import Synchronization

/// A TCP echo server on 127.0.0.1 (a port on "the box", which is this machine in tests): every
/// connection gets back what it sends, until it shuts down its side. Blocking threads, one per
/// connection; ``stop()`` closes the listener.
public final class EchoServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let accepted = Atomic<Int>(0)
    private let stillOpen = Atomic<Int>(0)

    /// How many connections it accepted.
    public var acceptedConnections: Int { accepted.load(ordering: .relaxed) }

    /// How many of them are still open on its side.
    public var openConnections: Int { stillOpen.load(ordering: .relaxed) }

    /// Starts listening on a free port.
    public init() throws {
        let address = SystemCall.loopback(port: 0)
        listener = try SystemCall.socket(for: address)
        try SystemCall.bind(listener, to: address)
        try SystemCall.listen(listener)
        port = try SystemCall.localPort(of: listener)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting (connections under way finish).
    public func stop() {
        _ = try? SystemCall.shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { SystemCall.close(listener) }
        while let client = try? SystemCall.accept(listener) {
            accepted.add(1, ordering: .relaxed)
            stillOpen.add(1, ordering: .relaxed)
            Thread.detachNewThread { [self] in
                Self.echo(client)
                stillOpen.subtract(1, ordering: .relaxed)
            }
        }
    }

    private static func echo(_ fd: Int32) {
        defer { SystemCall.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while let count = try? buffer.withUnsafeMutableBytes({ try SystemCall.receive(fd, into: $0) }), count > 0 {
            guard sendAll(fd, buffer[0..<count]) else { return }
        }
    }

    /// Sends everything on a blocking socket; false when the peer is gone (EPIPE, never SIGPIPE).
    private static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard let sent = try? rest.withUnsafeBytes({ try SystemCall.send(fd, from: $0) }), sent > 0 else { return false }
            rest = rest.dropFirst(sent)
        }
        return true
    }

    /// Connects to 127.0.0.1:`port` (blocking, on the calling thread), sends `bytes`, shuts down
    /// its side and returns everything read back until the peer closes.
    ///
    /// - Throws: `SystemCallError` with `ETIMEDOUT` when the peer neither answers nor closes
    ///   within `limit` (a connection accepted and then forgotten fails the test, not hangs it).
    public static func roundTrip(port: Int, _ bytes: [UInt8], limit: Duration = .seconds(30)) throws -> [UInt8] {
        let deadline = ContinuousClock.now + limit
        let address = SystemCall.loopback(port: port)
        let fd = try SystemCall.socket(for: address)
        defer { SystemCall.close(fd) }
        _ = try SystemCall.connect(fd, to: address)
        // The descriptor is closed only after the writer is done with it.
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if sendAll(fd, bytes[...]) { _ = try? SystemCall.shutdown(fd, Int32(SHUT_WR)) }
            written.signal()
        }
        defer { written.wait() }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                _ = try? SystemCall.shutdown(fd, Int32(SHUT_RDWR))  // frees a writer blocked on a full buffer
                throw SystemCallError("receive", code: ETIMEDOUT)
            }
            var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard try SystemCall.poll(&ready, timeout: left) > 0 else { continue }  // the deadline decides
            guard let count = try buffer.withUnsafeMutableBytes({ try SystemCall.receive(fd, into: $0) }), count > 0 else { break }
            received += buffer[0..<count]
        }
        // The peer is gone: a writer blocked on a full buffer gets EPIPE once this end stops too.
        _ = try? SystemCall.shutdown(fd, Int32(SHUT_RDWR))
        return received
    }
}
