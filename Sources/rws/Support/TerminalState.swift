import Foundation
import Platform
import Synchronization

/// The local terminal's settings before rws put it in raw mode, restored exactly once on every
/// way out: normal return, thrown error, `exit()` (atexit), and crash signals (a handler that
/// only calls the async-signal-safe `tcsetattr`, then lets the signal proceed).
final class TerminalState: Sendable {
    let fd: Int32
    private let saved: Mutex<termios?>
    /// The settings saved at the start, for building the remote terminal's modes.
    let original: termios

    private static let active = Mutex<TerminalState?>(nil)

    private init(fd: Int32, saved: termios) {
        self.fd = fd
        self.saved = Mutex(saved)
        original = saved
    }

    /// Saves `fd`'s settings and switches it to raw mode (no echo, no line editing, no signals).
    static func enterRawMode(fd: Int32) throws -> TerminalState {
        let settings: termios
        do {
            settings = try SystemCall.terminalSettings(fd)
        } catch {
            throw CLIError.failed("cannot read the terminal settings: \(error.reason)", code: RWSExitCode.failure)
        }
        let state = TerminalState(fd: fd, saved: settings)
        CrashRestore.arm(fd: fd, settings: settings)
        active.withLock { $0 = state }
        atexit { TerminalState.active.withLock { $0 }?.restore() }
        do {
            try SystemCall.setTerminalSettings(fd, SystemCall.rawMode(of: settings))
        } catch {
            throw CLIError.failed("cannot switch the terminal to raw mode: \(error.reason)", code: RWSExitCode.failure)
        }
        return state
    }

    /// Puts the saved settings back; later calls do nothing.
    func restore() {
        guard
            let settings = saved.withLock({ value -> termios? in
                defer { value = nil }
                return value
            })
        else { return }
        // On the way out: a terminal that cannot be restored has nobody left to tell.
        _ = try? SystemCall.setTerminalSettings(fd, settings)
        CrashRestore.disarm()
    }
}

/// Restores the terminal from a crash signal handler, where only async-signal-safe calls are allowed.
private enum CrashRestore {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static func arm(fd: Int32, settings: termios) {
        Self.settings = settings
        Self.fd = fd
        // Without the handler a crash leaves the terminal raw, as before this existed: not worth failing for.
        _ = try? SystemCall.handle(signals) { signalNumber in
            SystemCall.restoreTerminalAndReraise(signalNumber, fd: CrashRestore.fd, settings: &CrashRestore.settings)
        }
    }

    static func disarm() {
        fd = -1
        SystemCall.restoreDefaultAction(signals)
    }
}
