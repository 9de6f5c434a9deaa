import Dispatch
import Foundation
import SSHClient

/// Joins the local terminal (already in raw mode) to a remote ``ShellSession``: keystrokes go
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
    static func run(_ session: ShellSession, inputFD: Int32, outputFD: Int32) async -> End {
        let (ends, report) = AsyncStream.makeStream(of: End.self)
        _ = Task {
            do {
                for try await chunk in session.output { Terminal.write(chunk, to: outputFD) }
                report.yield(.exited(try await session.exitStatus()))
            } catch {
                report.yield(.failed(error))
            }
        }
        let input = Task { await forwardKeyboard(from: inputFD, to: session, report: report) }
        let resizes = followWindowSize(of: inputFD, session: session)
        let signals = endingSignals.map { number in
            watch(number) { report.yield(.signal(number)) }
        }
        var iterator = ends.makeAsyncIterator()
        let end = await iterator.next() ?? .inputClosed
        input.cancel()
        resizes.cancel()
        for source in signals { source.cancel() }
        return end
    }

    /// Copies keystrokes to the remote in order; stops on `~.` or when the keyboard goes away.
    private static func forwardKeyboard(from fd: Int32, to session: ShellSession, report: AsyncStream<End>.Continuation) async {
        var filter = EscapeFilter()
        for await chunk in KeyboardReader.start(fd: fd) {
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
        report.yield(.inputClosed)
    }

    /// Sends the local window size on every SIGWINCH; the latest size wins.
    private static func followWindowSize(of fd: Int32, session: ShellSession) -> Task<Void, Never> {
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
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler(handler: action)
        source.setCancelHandler { signal(number, SIG_DFL) }
        source.resume()
        return source
    }
}

/// Reads the keyboard on a thread of its own (reads block) and hands chunks over in order.
enum KeyboardReader {
    static func start(fd: Int32) -> AsyncStream<[UInt8]> {
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(64))
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }
                // A paste can outrun the network: wait for room rather than drop keystrokes.
                while case .dropped = continuation.yield(Array(buffer[0..<count])) { usleep(1000) }
            }
            continuation.finish()
        }
        reader.start()
        return chunks
    }
}
