import Foundation
import Platform

/// A pipe that other threads write a byte to so that the I/O thread's `poll` returns.
final class WakeSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    /// A new pipe; throws when the process has no descriptors left (an error for the caller to
    /// report, never a crash: an app embedding rws may be short of them for a while).
    init() throws(SystemCallError) {
        (readFD, writeFD) = try SystemCall.pipe()
    }

    /// Wakes the I/O thread. A full pipe already means a wake-up is pending, so that is no failure.
    func wake() {
        var byte: UInt8 = 1
        do {
            _ = try withUnsafeBytes(of: &byte) { buffer throws(SystemCallError) in try SystemCall.write(writeFD, from: buffer) }
        } catch {
            preconditionFailure("waking the I/O thread: \(error)")
        }
    }

    /// Empties the pipe after `poll` reported it readable.
    func drain() {
        SystemCall.drain(readFD)
    }

    deinit {
        SystemCall.close(readFD)
        SystemCall.close(writeFD)
    }
}
