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

    /// Copies keystrokes to the remote in order; stops on `~.` or when the keyboard goes away.
    private static func forwardKeyboard(_ keyboard: Keyboard, to session: InteractiveShell, report: AsyncStream<End>.Continuation) async {
        var filter = EscapeFilter()
        while let chunk = await keyboard.next() {
            let outcome = filter.feed(chunk)
            if !outcome.forward.isEmpty {
                do { try await session.send(outcome.forward) } catch { return }  // the output side reports the end
            }
            if outcome.showHelp { Terminal.err(EscapeFilter.help) }
            if outcome.disconnect {
                report.yield(.disconnected)
                return
            }
        }
        if keyboard.hasEnded { report.yield(.inputClosed) }
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

    /// Whether the keyboard has gone away (end of input or a read error).
    var hasEnded: Bool { state.withLock { $0.ended && $0.chunks.isEmpty } }
}
