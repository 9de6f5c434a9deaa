import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local terminal's settings before rws put it in raw mode, restored exactly once on every
/// way out: normal return, thrown error, `exit()` (atexit), and crash signals (a handler that
/// only calls the async-signal-safe `tcsetattr`, then lets the signal proceed).
final class TerminalState: Sendable {
    let fd: Int32
    private let saved: Mutex<termios?>
    /// The settings saved at the start, for building the remote terminal's modes.
    let original: SendableTermios

    private static let active = Mutex<TerminalState?>(nil)

    private init(fd: Int32, saved: termios) {
        self.fd = fd
        self.saved = Mutex(saved)
        original = SendableTermios(value: saved)
    }

    /// Saves `fd`'s settings and switches it to raw mode (no echo, no line editing, no signals).
    static func enterRawMode(fd: Int32) throws -> TerminalState {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            throw CLIError.failed("cannot read the terminal settings: \(String(cString: strerror(errno)))", code: RWSExitCode.failure)
        }
        let state = TerminalState(fd: fd, saved: settings)
        CrashRestore.arm(fd: fd, settings: settings)
        active.withLock { $0 = state }
        atexit { TerminalState.active.withLock { $0 }?.restore() }
        var raw = settings
        cfmakeraw(&raw)
        guard tcsetattr(fd, TCSADRAIN, &raw) == 0 else {
            throw CLIError.failed("cannot switch the terminal to raw mode: \(String(cString: strerror(errno)))", code: RWSExitCode.failure)
        }
        return state
    }

    /// Puts the saved settings back; later calls do nothing.
    func restore() {
        guard var settings = saved.withLock({ value -> termios? in defer { value = nil }; return value }) else { return }
        _ = tcsetattr(fd, TCSADRAIN, &settings)
        CrashRestore.disarm()
    }
}

/// A `termios` value carried across threads; it is plain data.
struct SendableTermios: @unchecked Sendable {
    let value: termios
}

/// Restores the terminal from a crash signal handler, where only async-signal-safe calls are allowed.
private enum CrashRestore {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static func arm(fd: Int32, settings: termios) {
        Self.settings = settings
        Self.fd = fd
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in
                if CrashRestore.fd >= 0 { _ = tcsetattr(CrashRestore.fd, TCSANOW, &CrashRestore.settings) }
                signal(signalNumber, SIG_DFL)
                raise(signalNumber)
            }
            sigaction(number, &action, nil)
        }
    }

    static func disarm() {
        fd = -1
        for number in signals { signal(number, SIG_DFL) }
    }
}
