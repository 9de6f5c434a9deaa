import Foundation
import Platform
import RWSTestSupport
import SSHClient

/// `rws-bench forward` (scripts/bench forward): a port of the box opened here by
/// `SSHConnection.forwardLocal` (rws forward) against OpenSSH's `ssh -L` on the same sshd and
/// against the port itself (no SSH): throughput of a 200 MB download, round trips of one byte
/// on an open connection, and new connections (connect, one byte there and back). Prints Markdown.
enum ForwardingBenchmark {
    static let size = 200_000_000
    static let runs = 3
    static let roundTrips = 2000
    static let connections = 200

    static func run(server: TestSSHServer) async throws {
        let source = try SourceServer(size: size)
        let echo = try EchoServer()
        defer { echo.stop() }
        try await server.withConnection { connection in
            let toSource = try connection.forwardLocal(to: source.port)
            let toEcho = try connection.forwardLocal(to: echo.port)
            defer {
                toSource.close()
                toEcho.close()
            }
            let sshSource = try OpenSSHForward(server: server, remotePort: source.port)
            defer { sshSource.stop() }
            let sshEcho = try OpenSSHForward(server: server, remotePort: echo.port)
            defer { sshEcho.stop() }
            let routes = [
                ("the port itself (no SSH)", source.port, echo.port), ("rws `forwardLocal`", toSource.localPort, toEcho.localPort),
                ("OpenSSH `ssh -L`", sshSource.localPort, sshEcho.localPort),
            ]
            var table = MarkdownTable([
                "route (loopback)", "200 MB p50 s", "MB/s", "round trip p50 ms", "p99", "max", "new connection p50 ms", "p99", "max",
            ])
            for (name, sourcePort, echoPort) in routes {
                let downloads = try await Blocking.onThread { try (0..<runs).map { _ in try timeDownload(port: sourcePort) } }
                let trips = try await Blocking.onThread { try timeRoundTrips(port: echoPort) }
                let connects = try await Blocking.onThread { try (0..<connections).map { _ in try timeNewConnection(port: echoPort) } }
                let p50 = median(downloads)
                table.add([
                    name, String(format: "%.2f | %.0f", p50, Double(size) / p50 / 1e6), percentileCells(trips), percentileCells(connects),
                ])
            }
            print(table)
        }
    }

    /// Seconds to read everything the source sends.
    private static func timeDownload(port: Int) throws -> Double {
        let fd = try connect(port)
        defer { SystemCall.close(fd) }
        let started = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while let count = try buffer.withUnsafeMutableBytes({ try SystemCall.receive(fd, into: $0) }), count > 0 { total += count }
        guard total == size else { throw BenchFailure("read \(total) of \(size) bytes") }
        return seconds(since: started)
    }

    /// Seconds per one-byte round trip on one connection.
    private static func timeRoundTrips(port: Int) throws -> [Double] {
        let fd = try connect(port)
        defer { SystemCall.close(fd) }
        var samples: [Double] = []
        var byte: [UInt8] = [42]
        for _ in 0..<roundTrips {
            let started = ContinuousClock.now
            _ = try byte.withUnsafeBytes { try SystemCall.send(fd, from: $0) }
            guard try byte.withUnsafeMutableBytes({ try SystemCall.receive(fd, into: $0) }) == 1 else {
                throw BenchFailure("no echo")
            }
            samples.append(seconds(since: started))
        }
        return samples
    }

    /// Seconds to connect and get one byte echoed on the new connection.
    private static func timeNewConnection(port: Int) throws -> Double {
        let started = ContinuousClock.now
        let fd = try connect(port)
        defer { SystemCall.close(fd) }
        var byte: [UInt8] = [7]
        _ = try byte.withUnsafeBytes { try SystemCall.send(fd, from: $0) }
        guard try byte.withUnsafeMutableBytes({ try SystemCall.receive(fd, into: $0) }) == 1 else { throw BenchFailure("no echo") }
        return seconds(since: started)
    }

    private static func connect(_ port: Int) throws -> Int32 {
        let address = SystemCall.loopback(port: port)
        let fd = try SystemCall.socket(for: address)
        _ = try SystemCall.connect(fd, to: address)
        try SystemCall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        return fd
    }
}

/// Sends `size` bytes to each connection, then closes it.
private final class SourceServer: Sendable {
    let port: Int
    private let listener: Int32

    init(size: Int) throws {
        let address = SystemCall.loopback(port: 0)
        listener = try SystemCall.socket(for: address)
        try SystemCall.bind(listener, to: address)
        try SystemCall.listen(listener)
        port = try SystemCall.localPort(of: listener)
        Thread.detachNewThread { [listener] in
            while let client = try? SystemCall.accept(listener) {
                Thread.detachNewThread {
                    let chunk = [UInt8](repeating: 0x61, count: 256 * 1024)
                    var left = size
                    while left > 0,
                        let sent = try? chunk[0..<min(left, chunk.count)].withUnsafeBytes({ try SystemCall.send(client, from: $0) }),
                        sent > 0
                    {
                        left -= sent
                    }
                    SystemCall.close(client)
                }
            }
        }
    }
}

/// `ssh -N -L` to `remotePort` on the test server, as a person would run it.
private struct OpenSSHForward {
    let localPort: Int
    let pid: pid_t

    init(server: TestSSHServer, remotePort: Int) throws {
        let address = SystemCall.loopback(port: 0)
        let probe = try SystemCall.socket(for: address)
        try SystemCall.bind(probe, to: address)
        localPort = try SystemCall.localPort(of: probe)
        SystemCall.close(probe)
        pid = try Spawn.start(
            "/usr/bin/ssh",
            ["-N", "-o", "ExitOnForwardFailure=yes", "-L", "\(localPort):127.0.0.1:\(remotePort)", "-p", String(server.port)]
                + server.openSSHOptions + [server.login], environment: ["PATH=/usr/bin:/bin"], stdoutPath: "/dev/null", stderrPath: nil)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let fd = try SystemCall.socket(for: SystemCall.loopback(port: localPort))
            defer { SystemCall.close(fd) }
            if (try? SystemCall.connect(fd, to: SystemCall.loopback(port: localPort))) == true { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw BenchFailure("ssh -L did not listen on \(localPort) within 10 s")
    }

    func stop() {
        _ = try? SystemCall.kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
