import Foundation
import Platform

/// A pipe that other threads write a byte to so that the I/O thread's `poll` returns.
final class WakeSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() {
        do {
            (readFD, writeFD) = try SystemCall.pipe()
        } catch {
            fatalError("cannot create the wake-up pipe: \(error)")
        }
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
