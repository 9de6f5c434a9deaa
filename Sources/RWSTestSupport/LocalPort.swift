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

    /// Waits until `process` answers a connection on `port` with its first bytes (an SSH server's
    /// identification line), then closes it: the server listens and has taken every connection
    /// made before. Throws with the log when the process exits, or after ``StartWait/limit``.
    static func waitForGreeting(port: Int, process: SpawnedProcess, name: String, logPath: String) throws {
        let deadline = ContinuousClock.now + StartWait.limit
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                throw TestServerError.startFailed("\(name) exited at start: \(log)")
            }
            if let fd = connected(port: port) {
                defer { SystemCall.close(fd) }
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                guard try SystemCall.poll(&fds, timeout: max(.zero, deadline - .now)) > 0 else {
                    throw TestServerError.startFailed(
                        "\(name) on 127.0.0.1:\(port) sent nothing within \(StartWait.seconds) s of its start")
                }
                var buffer = [UInt8](repeating: 0, count: 256)
                _ = try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0) }
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TestServerError.startFailed("\(name) did not listen on 127.0.0.1:\(port) within \(StartWait.seconds) s")
    }

    /// A socket connected to `port`, or nil while nothing listens there.
    private static func connected(port: Int) -> Int32? {
        let address = SystemCall.loopback(port: port)
        guard let fd = try? SystemCall.socket(for: address) else { return nil }
        if (try? SystemCall.connect(fd, to: address)) == true { return fd }
        SystemCall.close(fd)
        return nil
    }
}
