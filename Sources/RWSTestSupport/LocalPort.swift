import Foundation
import Platform

/// TCP ports on 127.0.0.1 for the test servers.
enum LocalPort {
    /// A port nobody listens on now (the server may still lose a race for it: callers retry).
    static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestServerError.startFailed("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
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
            usleep(20_000)
        }
        throw TestServerError.startFailed("\(name) did not listen on 127.0.0.1:\(port) within 10 s")
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Platform.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
