import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that other threads write a byte to so that the I/O thread's `poll` returns.
final class WakeSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { fatalError("pipe() failed: \(errnoText())") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Wakes the I/O thread. A full pipe already means a wake-up is pending, so that failure is harmless.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe after `poll` reported it readable.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}
