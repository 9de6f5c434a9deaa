import Foundation
import Platform
import SSHClient
import Synchronization

/// Asks for the passphrase of an encrypted identity file on the terminal, as `ssh` does: only
/// when that key's turn comes (after the agent's keys), the prompt on the terminal, what is typed
/// never echoed.
///
/// One asker serves one command: a key's passphrase is asked once, so a reconnect does not ask
/// again, and after Ctrl+C nothing more is asked (``endingError()`` says so).
final class PassphrasePrompt: Sendable {
    private struct State {
        var answers: [String: String] = [:]
        /// The prompt that ended the asking: Ctrl+C, or no answer in time.
        var ended: (key: String, reply: Reply)?
    }

    private let state = Mutex(State())

    /// The error the command ends with when a prompt ended the asking, whatever the connection
    /// said: Ctrl+C (exit code 130), or no answer within the time given.
    func endingError() -> (any Error)? {
        guard let ended = state.withLock({ $0.ended }) else { return nil }
        if case .timedOut(let limit) = ended.reply { return SSHError.passphraseTimedOut(key: ended.key, after: limit) }
        return CLIError.failed(
            "interrupted at the passphrase prompt for \(ended.key.safeLine); nothing was run", code: RWSExitCode.interrupted)
    }

    /// The passphrase for `challenge`'s key: typed now, or the one typed earlier in this command;
    /// nil (skip the key) without a terminal, after Ctrl+C, or when `limit` passed.
    func ask(_ challenge: PassphraseChallenge, within limit: Duration) async -> String? {
        let known = state.withLock { state -> (stop: Bool, answer: String?) in
            // Asked again: the answer kept was wrong.
            if challenge.attempt > 1 { state.answers[challenge.key] = nil }
            return (state.ended != nil, state.answers[challenge.key])
        }
        if known.stop { return nil }
        if let answer = known.answer { return answer }
        let key = challenge.key.safeLine
        let prompt = challenge.attempt > 1 ? "Bad passphrase, try again for key '\(key)': " : "Enter passphrase for key '\(key)': "
        // The read blocks: it runs on a thread of its own, not on the tasks' pool.
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
            Thread.detachNewThread { continuation.resume(returning: Self.read(prompt: prompt, within: limit)) }
        }
        switch reply {
        case .line(let passphrase):
            state.withLock { $0.answers[challenge.key] = passphrase }
            return passphrase
        case .interrupted, .timedOut:
            state.withLock { $0.ended = (challenge.key, reply) }
            return nil
        case .noTerminal:
            return nil
        }
    }

    private enum Reply {
        case line(String)
        case interrupted
        case noTerminal
        case timedOut(Duration)
    }

    /// Reads one line from the controlling terminal with echo off, within `limit`.
    private static func read(prompt: String, within limit: Duration) -> Reply {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return .noTerminal }
        defer { SystemCall.close(fd) }
        guard let saved = try? SystemCall.terminalSettings(fd) else { return .noTerminal }
        // No echo, no line editing, no signals: Ctrl+C is read here, so the terminal is always restored.
        var quiet = SystemCall.rawMode(of: saved)
        quiet.c_oflag = saved.c_oflag
        // Echo goes off before the prompt shows: a key typed as soon as it shows is never echoed.
        guard (try? SystemCall.setTerminalSettings(fd, quiet)) != nil else { return .noTerminal }
        defer {
            try? SystemCall.setTerminalSettings(fd, saved)
            Terminal.write(Array("\n".utf8), to: fd)
        }
        Terminal.write(Array(prompt.utf8), to: fd)
        let deadline = ContinuousClock.now + limit
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, let ready = try? SystemCall.poll(&fds, timeout: remaining) else { return .timedOut(limit) }
            if ready == 0 { continue }
            guard Glibc.read(fd, &byte, 1) == 1 else { return .line(String(decoding: line, as: UTF8.self)) }
            switch byte {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), 0x04: return .line(String(decoding: line, as: UTF8.self))
            case 0x03: return .interrupted
            case 0x7F, 0x08: if !line.isEmpty { line.removeLast() }
            default: line.append(byte)
            }
        }
    }
}
