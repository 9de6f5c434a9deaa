import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to the local standard streams without Foundation's buffering surprises.
enum Terminal {
    /// Writes all of `bytes`; false when the descriptor failed (a closed pipe).
    @discardableResult
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0, errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func out(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }
    static func err(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// Whether `fd` is a terminal.
    static func isTTY(_ fd: Int32) -> Bool { isatty(fd) != 0 }
}
