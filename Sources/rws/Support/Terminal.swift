import Foundation
import Platform
import Synchronization

/// Writing to the local standard streams without Foundation's buffering surprises.
enum Terminal {
    /// Writes all of `bytes`; false when the descriptor failed (a closed pipe).
    @discardableResult
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        if let capture, fd == STDOUT_FILENO || fd == STDERR_FILENO {
            capture.append(bytes, toStandardError: fd == STDERR_FILENO)
            return true
        }
        return (try? SystemCall.writeAll(fd, bytes)) != nil
    }

    /// Where a command run in-process (`RWS.run(_:)` under a test) reads its standard input and
    /// writes its standard output and error instead of the process's; nil for the real streams.
    @TaskLocal static var capture: OutputCapture?

    static func out(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }
    static func err(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// The whole of standard input, to its end (blocking).
    static func readStandardInput() -> [UInt8] {
        if let capture { return capture.standardInput }
        var bytes: [UInt8] = []
        readToEnd(STDIN_FILENO) { bytes += $0 }
        return bytes
    }

    /// Reads `fd` to its end (blocking), handing `consume` each piece as it arrives. A failure, or
    /// a nonblocking descriptor with nothing yet, ends the reading as the end does.
    static func readToEnd(_ fd: Int32, into consume: (ArraySlice<UInt8>) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while let count = try? buffer.withUnsafeMutableBytes({ bytes throws(SystemCallError) in try SystemCall.read(fd, into: bytes) }),
            count > 0
        {
            consume(buffer[0..<count])
        }
    }

    /// Whether `fd` is a terminal. A command run in-process has pipes for its standard streams,
    /// as the binary has when a test spawns it: never the test process's own terminal.
    static func isTTY(_ fd: Int32) -> Bool {
        if capture != nil, (STDIN_FILENO...STDERR_FILENO).contains(fd) { return false }
        return SystemCall.isTerminal(fd)
    }
}

/// The standard streams of a command run in-process: what its standard input holds, given
/// beforehand (a pipe already closed), and its standard output and error, as bytes in the order written.
final class OutputCapture: Sendable {
    private let streams = Mutex<(out: [UInt8], err: [UInt8])>(([], []))
    /// The bytes the command reads from its standard input, then its end.
    let standardInput: [UInt8]

    init(standardInput: [UInt8] = []) {
        self.standardInput = standardInput
    }

    func append(_ bytes: [UInt8], toStandardError: Bool) {
        streams.withLock { toStandardError ? $0.err.append(contentsOf: bytes) : $0.out.append(contentsOf: bytes) }
    }

    /// What was written to standard output.
    var standardOutput: String { streams.withLock { String(decoding: $0.out, as: UTF8.self) } }
    /// What was written to standard error.
    var standardError: String { streams.withLock { String(decoding: $0.err, as: UTF8.self) } }
}
