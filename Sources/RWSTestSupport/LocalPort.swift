import Foundation
import Platform

/// TCP ports on 127.0.0.1 for the test servers.
enum LocalPort {
    /// A port nobody listens on now (the server may still lose a race for it: callers retry).
    static func free() throws -> Int {
        let address = SystemCall.loopback(port: 0)
        let fd = try SystemCall.socket(for: address)
        defer { SystemCall.close(fd) }
        try SystemCall.bind(fd, to: address)
        return try SystemCall.localPort(of: fd)
    }

    /// Waits until `process` accepts connections on `port`; throws with the log when it exits or takes over 10 s.
    static func waitUntilListening(port: Int, process: SpawnedProcess, name: String, logPath: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw TestServerError.startFailed("\(name) exited at start: \(log)")
            }
            if canConnect(port: port) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TestServerError.startFailed("\(name) did not listen on 127.0.0.1:\(port) within 10 s")
    }

    private static func canConnect(port: Int) -> Bool {
        let address = SystemCall.loopback(port: port)
        guard let fd = try? SystemCall.socket(for: address) else { return false }
        defer { SystemCall.close(fd) }
        return (try? SystemCall.connect(fd, to: address)) == true
    }

    /// Connects to `port`, waits up to 10 s for the server's first bytes (an SSH server's
    /// identification line) and closes: the server has taken every connection made before.
    static func readGreeting(port: Int, name: String) throws {
        let address = SystemCall.loopback(port: port)
        let fd = try SystemCall.socket(for: address)
        defer { SystemCall.close(fd) }
        guard try SystemCall.connect(fd, to: address) else {
            throw TestServerError.startFailed("\(name): connecting to 127.0.0.1:\(port) did not finish")
        }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard try SystemCall.poll(&fds, timeout: .seconds(10)) > 0 else {
            throw TestServerError.startFailed("\(name) on 127.0.0.1:\(port) sent nothing within 10 s of a connection")
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        _ = try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0) }
    }
}
