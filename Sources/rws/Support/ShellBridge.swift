import Dispatch
import Foundation
import Platform
import SSHClient
import Synchronization

/// Joins the local terminal (already in raw mode) to a remote ``InteractiveShell``: keystrokes go
/// up (through the `~.` escape filter), output comes down, window size changes follow, and
/// termination signals end the bridge instead of the process, so the caller can clean up.
enum ShellBridge {
    /// Why the bridge stopped.
    enum End {
        /// The remote program ended.
        case exited(ExitStatus)
        /// The output failed, e.g. the connection was lost.
        case failed(any Error)
        /// The user typed `~.`.
        case disconnected
        /// A local signal (SIGTERM, SIGHUP, SIGQUIT, SIGINT) arrived.
        case signal(Int32)
        /// The local terminal went away (read error or end of input).
        case inputClosed
    }

    static let endingSignals = [SIGTERM, SIGHUP, SIGQUIT, SIGINT]

    /// Runs until the first reason to stop, and returns it.
    static func run(_ session: InteractiveShell, keyboard: Keyboard, inputFD: Int32, outputFD: Int32) async -> End {
        let (ends, report) = AsyncStream.makeStream(of: End.self)
        let screen = Screen(fd: outputFD)
        _ = Task {
            do {
                for try await chunk in session.output where !screen.show(chunk) { break }
                report.yield(.exited(try await session.exitStatus()))
            } catch {
                report.yield(.failed(error))
            }
        }
        let input = Task { await forwardKeyboard(keyboard, to: session, report: report) }
        let resizes = followWindowSize(of: inputFD, session: session)
        let signals = endingSignals.map { number in
            watch(number) { report.yield(.signal(number)) }
        }
        var iterator = ends.makeAsyncIterator()
        let end = await iterator.next() ?? .inputClosed
        input.cancel()
        resizes.cancel()
        for source in signals { source.cancel() }
        screen.leave()
        return end
    }

    /// How waiting for a shell ended.
    enum Wait {
        /// The shell opened; the keys typed meanwhile are back in the keyboard for it.
        case opened(InteractiveShell)
        /// `~.`, an ending signal or the end of the keyboard gave up the wait.
        case gaveUp(End)
    }

    /// Waits for `open` (a persistent shell waiting for the link to come back) while `~.` and
    /// the ending signals can still give up, as they can once the shell runs; other keys typed
    /// meanwhile are kept for the shell.
    static func waitForShell(keyboard: Keyboard, _ open: @escaping @Sendable () async throws -> InteractiveShell) async throws -> Wait {
        enum Event: Sendable {
            case opened(InteractiveShell)
            case failed(any Error)
            case gaveUp(End)
        }
        let (events, report) = AsyncStream.makeStream(of: Event.self)
        let opening = Task {
            do { report.yield(.opened(try await open())) } catch { report.yield(.failed(error)) }
        }
        let typing = Task { () -> [UInt8] in
            var kept: [UInt8] = []
            if let end = await readKeys(
                keyboard,
                deliver: {
                    kept += $0
                    return true
                })
            {
                report.yield(.gaveUp(end))
            }
            return kept
        }
        let signals = endingSignals.map { number in watch(number) { report.yield(.gaveUp(.signal(number))) } }
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        typing.cancel()
        for source in signals { source.cancel() }
        let kept = await typing.value
        switch first {
        case .opened(let shell):
            keyboard.unread(kept)
            return .opened(shell)
        case .failed(let error):
            throw error
        case .gaveUp(let end):
            opening.cancel()
            return .gaveUp(end)
        case nil:
            opening.cancel()
            return .gaveUp(.inputClosed)
        }
    }

    /// Copies keystrokes to the remote in order; stops on `~.` or when the keyboard goes away.
    /// The keys go out from a task of their own, so `~.` disconnects at once even while the
    /// remote takes none (its window full, or its PID line not seen yet: rws holds keys till then).
    private static func forwardKeyboard(_ keyboard: Keyboard, to session: InteractiveShell, report: AsyncStream<End>.Continuation) async {
        let (keys, typed) = AsyncStream.makeStream(of: [UInt8].self)
        let sendFailed = SendFailure()
        let sender = Task {
            for await bytes in keys where !sendFailed.happened {
                // A failed send ends the forwarding quietly: the output side reports the end.
                if (try? await session.send(bytes)) == nil { sendFailed.note() }
            }
        }
        let end = await readKeys(keyboard) { bytes in
            typed.yield(bytes)
            return !sendFailed.happened
        }
        typed.finish()
        // At the end of the keyboard the keys typed before it still go; otherwise nothing waits for them.
        if case .inputClosed? = end { await sender.value } else { sender.cancel() }
        if let end { report.yield(end) }
    }

    /// Whether a key could not be sent (the session has ended).
    private final class SendFailure: Sendable {
        private let flag = Atomic<Bool>(false)
        var happened: Bool { flag.load(ordering: .relaxed) }
        func note() { flag.store(true, ordering: .relaxed) }
    }

    /// Reads keys through the `~` escapes and hands on what is for the remote until `deliver`
    /// refuses, `~.` (`.disconnected`), the end of the keyboard (`.inputClosed`) or cancellation (nil).
    private static func readKeys(_ keyboard: Keyboard, deliver: ([UInt8]) async -> Bool) async -> End? {
        var filter = EscapeFilter()
        while let chunk = await keyboard.next() {
            let outcome = filter.feed(chunk)
            if !outcome.forward.isEmpty, await !deliver(outcome.forward) { return nil }
            if outcome.showHelp { Terminal.err(EscapeFilter.help) }
            if outcome.disconnect { return .disconnected }
        }
        return keyboard.hasEnded ? .inputClosed : nil
    }

    /// Sends the local window size on every SIGWINCH; the latest size wins.
    private static func followWindowSize(of fd: Int32, session: InteractiveShell) -> Task<Void, Never> {
        let (ticks, tick) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let source = watch(SIGWINCH) { tick.yield() }
        return Task {
            for await _ in ticks {
                let size = LocalTerminal.size(of: fd)
                try? await session.resize(columns: size.columns, rows: size.rows)
            }
            source.cancel()
        }
    }

    /// Delivers `number` to `action` instead of its default effect, until the source is cancelled.
    private static func watch(_ number: Int32, action: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        SystemCall.ignore(number)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: action)
        source.setCancelHandler { SystemCall.restoreDefaultAction([number]) }
        source.resume()
        return source
    }
}

/// The local terminal as the remote program drew on it: shows output until ``leave()``, which
/// switches back what the program left on (a detached tmux's alternate screen and status line,
/// mouse reporting, a hidden cursor), so the local shell comes back as it was.
private final class Screen: Sendable {
    private struct State {
        var showing = true
        var modes = TerminalModeTracker()
    }

    private let fd: Int32
    private let state = Mutex(State())

    init(fd: Int32) { self.fd = fd }

    /// Writes `chunk` unless the screen was left; false once it was.
    func show(_ chunk: [UInt8]) -> Bool {
        state.withLock { state in
            guard state.showing else { return false }
            state.modes.scan(chunk)
            Terminal.write(chunk, to: fd)
            return true
        }
    }

    /// Stops showing output and restores the modes left on.
    func leave() {
        let restoring = state.withLock { state in
            state.showing = false
            return state.modes.modes.restoringSequence
        }
        if !restoring.isEmpty { Terminal.write(restoring, to: fd) }
    }
}
