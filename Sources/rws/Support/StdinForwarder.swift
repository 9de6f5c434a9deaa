import Foundation
import SSHClient

/// Copies local stdin to a remote command on a thread of its own (reads block), then closes its input.
final class StdinForwarder: Sendable {
    private let task: Task<Void, Never>

    private init(task: Task<Void, Never>) { self.task = task }

    static func start(to remote: RemoteCommand) -> StdinForwarder {
        if let given = Terminal.capture?.standardInput {
            return StdinForwarder(
                task: Task {
                    await forward(
                        AsyncStream {
                            $0.yield(given)
                            $0.finish()
                        }, to: remote)
                })
        }
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(4))
        let reader = Thread {
            Terminal.readToEnd(STDIN_FILENO) { piece in
                // Wait for room instead of dropping: stdin must arrive whole.
                while case .dropped = continuation.yield(Array(piece)) { Thread.sleep(forTimeInterval: 0.001) }
            }
            continuation.finish()
        }
        reader.start()
        return StdinForwarder(task: Task { await forward(chunks, to: remote) })
    }

    /// Writes `chunks` to the command, then closes its input; a command that ended stops it.
    private static func forward(_ chunks: some AsyncSequence<[UInt8], Never> & Sendable, to remote: RemoteCommand) async {
        do {
            for await chunk in chunks where !chunk.isEmpty { try await remote.write(chunk) }
            try await remote.closeInput()
        } catch {}
    }

    func cancel() { task.cancel() }
}
