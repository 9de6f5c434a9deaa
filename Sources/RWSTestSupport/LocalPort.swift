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
}
