import Dispatch
import Foundation
import Platform
import SSHClient
import Synchronization

/// The keyboard, read on a thread of its own (reads block) for the life of the process, so that
/// several bridges in turn (a persistent shell reattaching) each get every keystroke typed
/// after the previous one ended: a waiting read is cancelled without ending the keyboard.
final class Keyboard: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var ended = false
        var waiter: CheckedContinuation<[UInt8]?, Never>?
    }

    private let state = Mutex(State())

    init(fd: Int32) {
        // The thread holds the keyboard for the life of the process: it reads until the input ends.
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                // nil: nothing yet (a nonblocking descriptor); a failure ends the input like its end.
                let count: Int?
                do {
                    count = try buffer.withUnsafeMutableBytes { bytes throws(SystemCallError) in try SystemCall.read(fd, into: bytes) }
                } catch {
                    count = 0
                }
                guard let count else { continue }
                deliver(count > 0 ? Array(buffer[0..<count]) : nil)
                if count == 0 { return }
            }
        }
        reader.start()
    }

    /// Hands a chunk (nil: the end) to the waiting reader, or keeps it for the next one.
    private func deliver(_ chunk: [UInt8]?) {
        let handOver = state.withLock { state -> (CheckedContinuation<[UInt8]?, Never>, [UInt8]?)? in
            if let chunk { state.chunks.append(chunk) } else { state.ended = true }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, state.chunks.isEmpty ? nil : state.chunks.removeFirst())
        }
        if let (waiter, value) = handOver { waiter.resume(returning: value) }
    }

    /// The next chunk typed, or nil when the keyboard went away or the waiting task was cancelled.
    func next() async -> [UInt8]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> (Bool, [UInt8]?) in
                    if !state.chunks.isEmpty { return (true, state.chunks.removeFirst()) }
                    if state.ended || Task.isCancelled { return (true, nil) }
                    state.waiter = continuation
                    return (false, nil)
                }
                if ready.0 { continuation.resume(returning: ready.1) }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(returning: nil)
        }
    }

    /// Puts `bytes` back in front of what is still to be read (keys typed while no shell ran).
    func unread(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        state.withLock { $0.chunks.insert(bytes, at: 0) }
    }

    /// Whether the keyboard has gone away (end of input or a read error).
    var hasEnded: Bool { state.withLock { $0.ended && $0.chunks.isEmpty } }
}
