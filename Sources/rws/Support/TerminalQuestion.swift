import Foundation
import Platform
import Synchronization

/// Questions asked on the terminal while something else runs (`rws ask`'s and `rws watch`'s
/// permission questions).
///
/// A question only takes keys typed after it appeared: what was typed ahead is discarded. Ctrl+C
/// (seen by the caller's signal handler) ends the question being asked through ``interrupt()``
/// at once, without waiting for Enter; ``withdraw()`` ends it because it was answered elsewhere.
/// Either way the question stops reading, so the next line typed goes to the next question only.
final class TerminalQuestion: Sendable {
    /// What came back for a question.
    enum Reply: Equatable {
        /// One line typed (without its newline).
        case line(String)
        /// The input ended (Ctrl+D, or stdin closed) before a line was given.
        case endOfInput
        /// ``interrupt()`` was called while the question waited.
        case interrupted
        /// ``withdraw()`` was called while the question waited.
        case withdrawn
    }

    private struct Waiting {
        let continuation: CheckedContinuation<Reply, Never>
        /// The write end of the pipe the reader polls beside the terminal; closing it stops the reader.
        let stop: Int32?
        /// Which prompt this is: a reader ends only its own prompt.
        let number: Int
    }

    private struct State {
        var waiting: Waiting?
        /// The question begun last was withdrawn: every prompt it still asks returns at once.
        var withdrawn = false
        var prompts = 0
    }

    private let state = Mutex(State())
    private let fd: Int32

    init(fd: Int32 = STDIN_FILENO) {
        self.fd = fd
    }

    /// Starts a question: from now on ``withdraw()`` ends it, even before its first prompt shows,
    /// until the next question begins.
    func begin() {
        state.withLock { $0.withdrawn = false }
    }

    /// Shows `prompt` on stderr, drops the keys typed before it, and waits for a fresh line.
    func ask(_ prompt: String) async -> Reply {
        if state.withLock({ $0.withdrawn }) { return .withdrawn }
        Terminal.err(prompt)
        SystemCall.discardPendingInput(fd)
        // Without a pipe (no descriptor left) the question still works; only a withdrawn one
        // then keeps its reader until the next line.
        let pipe = try? SystemCall.pipe()
        return await withCheckedContinuation { continuation in
            let number = state.withLock { state -> Int? in
                guard !state.withdrawn else { return nil }
                state.prompts += 1
                state.waiting = Waiting(continuation: continuation, stop: pipe?.write, number: state.prompts)
                return state.prompts
            }
            guard let number else {
                if let pipe { [pipe.read, pipe.write].forEach(SystemCall.close) }
                return continuation.resume(returning: .withdrawn)
            }
            let fd = self.fd
            // The read blocks, so it runs on a thread of its own, polling the stop pipe beside it.
            Thread.detachNewThread { [self] in
                let line = Self.readLine(from: fd, stoppedBy: pipe?.read)
                if let stop = pipe?.read { SystemCall.close(stop) }
                switch line {
                case .line(let text): finish(.line(text), prompt: number)
                case .endOfInput: finish(.endOfInput, prompt: number)
                case .stopped: break
                }
            }
        }
    }

    /// Ends the question that is waiting with ``Reply/interrupted``; false when none waits.
    @discardableResult
    func interrupt() -> Bool {
        finish(.interrupted)
    }

    /// Ends the question begun last (see ``begin()``) with ``Reply/withdrawn``, now or at its next
    /// prompt; false when no prompt waited.
    @discardableResult
    func withdraw() -> Bool {
        finish(.withdrawn)
    }

    /// Ends the waiting prompt (only prompt number `prompt`, when given) with `reply`.
    @discardableResult
    private func finish(_ reply: Reply, prompt: Int? = nil) -> Bool {
        guard
            let asked = state.withLock({ state -> Waiting? in
                if reply == .withdrawn { state.withdrawn = true }
                guard let waiting = state.waiting, prompt == nil || prompt == waiting.number else { return nil }
                state.waiting = nil
                return waiting
            })
        else { return false }
        if let stop = asked.stop { SystemCall.close(stop) }
        asked.continuation.resume(returning: reply)
        return true
    }

    private enum ReadLine {
        case line(String)
        case endOfInput
        /// The stop pipe closed: the question ended some other way; what was typed of a line is dropped.
        case stopped
    }

    /// Reads up to a newline with plain `read`s (no stdio buffer that could keep keys for later),
    /// until the input ends or `stop` becomes readable (its write end closed).
    private static func readLine(from fd: Int32, stoppedBy stop: Int32?) -> ReadLine {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            if let stop {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
                guard (try? SystemCall.poll(&fds, timeout: nil)) != nil else { break }
                if fds[1].revents != 0 { return .stopped }
                if fds[0].revents == 0 { continue }
            }
            let count: Int?
            do {
                count = try withUnsafeMutableBytes(of: &byte) { buffer throws(SystemCallError) in try SystemCall.read(fd, into: buffer) }
            } catch {
                break
            }
            // Nothing to read after all (a nonblocking terminal): wait again.
            guard let count else {
                if stop == nil { break } else { continue }
            }
            guard count > 0 else { break }
            if byte == UInt8(ascii: "\n") { return .line(String(decoding: bytes, as: UTF8.self)) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? .endOfInput : .line(String(decoding: bytes, as: UTF8.self))
    }
}
