import Foundation
import Platform
import Synchronization

/// Questions asked on the terminal while something else runs (`rws ask`'s permission questions).
///
/// A question only takes keys typed after it appeared: what was typed ahead is discarded. Ctrl+C
/// (seen by the caller's signal handler) ends the question being asked through ``interrupt()``
/// at once, without waiting for Enter.
final class TerminalQuestion: Sendable {
    /// What came back for a question.
    enum Reply: Equatable {
        /// One line typed (without its newline).
        case line(String)
        /// The input ended (Ctrl+D, or stdin closed) before a line was given.
        case endOfInput
        /// ``interrupt()`` was called while the question waited.
        case interrupted
    }

    private let waiting = Mutex<CheckedContinuation<Reply, Never>?>(nil)
    private let fd: Int32

    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// Shows `prompt` on stderr, drops the keys typed before it, and waits for a fresh line.
    func ask(_ prompt: String) async -> Reply {
        Terminal.err(prompt)
        SystemCall.discardPendingInput(fd)
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            // The read blocks, so it runs on a thread of its own; after an interrupt it is left
            // behind, which is fine because an interrupted question ends the command.
            let fd = self.fd
            Thread.detachNewThread { [self] in finish(Self.readLine(from: fd).map(Reply.line) ?? .endOfInput) }
        }
    }

    /// Ends the question that is waiting with ``Reply/interrupted``; false when none waits.
    @discardableResult
    func interrupt() -> Bool {
        finish(.interrupted)
    }

    @discardableResult
    private func finish(_ reply: Reply) -> Bool {
        guard
            let continuation = waiting.withLock({ state in
                defer { state = nil }
                return state
            })
        else { return false }
        continuation.resume(returning: reply)
        return true
    }

    /// Reads up to a newline with plain `read`s (no stdio buffer that could keep keys for later);
    /// nil when the input ends before anything was typed.
    private static func readLine(from fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = try? withUnsafeMutableBytes(of: &byte) { buffer throws(SystemCallError) in try SystemCall.read(fd, into: buffer) }
            guard let count, count > 0 else { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
