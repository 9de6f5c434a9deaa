import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that forwards to `targetPort`, slowing the server-to-client direction
/// to about `bytesPerSecond`, so that a clone through it is still receiving when a test cancels it.
final class ThrottlingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(targetPort: Int, bytesPerSecond: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var target = Self.loopback(port: targetPort)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
                guard connected else { close(client); close(server); continue }
                Thread.detachNewThread { Self.pump(from: client, to: server, chunk: 65536, pause: 0) }
                let pause = UInt32(4096 * 1_000_000 / max(1, bytesPerSecond))
                Thread.detachNewThread { Self.pump(from: server, to: client, chunk: 4096, pause: pause) }
            }
        }
    }

    /// Stops accepting; connections in flight end when either side closes.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func pump(from source: Int32, to sink: Int32, chunk: Int, pause: UInt32) {
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = read(source, &buffer, chunk)
            if count <= 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { send(sink, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { break }
                offset += written
            }
            if offset < count { break }
            if pause > 0 { usleep(pause) }
        }
        shutdown(sink, Int32(SHUT_WR))
        shutdown(source, Int32(SHUT_RD))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
