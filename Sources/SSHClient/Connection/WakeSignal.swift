import Foundation
import Platform
import Synchronization

/// A pipe that other threads write a byte to so that the I/O thread's `poll` returns.
final class WakeSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32
    /// Whether ``close()`` ran. Wakes check it under the lock: one from another thread after the
    /// close never writes to a descriptor number the process has since given to something else.
    private let closed = Mutex(false)

    /// A new pipe; throws when the process has no descriptors left (an error for the caller to
    /// report, never a crash: an app embedding rws may be short of them for a while).
    init() throws(SystemCallError) {
        (readFD, writeFD) = try SystemCall.pipe()
    }

    /// Wakes the I/O thread; nothing once closed. A full pipe already means a wake-up is pending,
    /// so that is no failure.
    func wake() {
        closed.withLock { closed in
            guard !closed else { return }
            var byte: UInt8 = 1
            do {
                _ = try withUnsafeBytes(of: &byte) { buffer throws(SystemCallError) in try SystemCall.write(writeFD, from: buffer) }
            } catch {
                preconditionFailure("waking the I/O thread: \(error)")
            }
        }
    }

    /// Empties the pipe after `poll` reported it readable.
    func drain() {
        SystemCall.drain(readFD)
    }

    /// Gives the pipe's descriptors back now rather than when the last reference goes, which for
    /// a lost connection's loop is only once its successor is adopted. For the polling thread,
    /// after its last `poll`.
    func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            SystemCall.close(readFD)
            SystemCall.close(writeFD)
        }
    }

    deinit { close() }
}
