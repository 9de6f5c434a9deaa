import Foundation
import Platform

/// Writing to the local standard streams without Foundation's buffering surprises.
enum Terminal {
    /// Writes all of `bytes`; false when the descriptor failed (a closed pipe).
    @discardableResult
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        (try? SystemCall.writeAll(fd, bytes)) != nil
    }

    static func out(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }
    static func err(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// Whether `fd` is a terminal.
    static func isTTY(_ fd: Int32) -> Bool { SystemCall.isTerminal(fd) }
}
