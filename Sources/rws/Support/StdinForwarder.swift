import Foundation
import SSHClient

/// Copies local stdin to a remote command on a thread of its own (reads block), then closes its input.
final class StdinForwarder: Sendable {
    private let task: Task<Void, Never>

    private init(task: Task<Void, Never>) { self.task = task }

    static func start(to remote: RemoteCommand) -> StdinForwarder {
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingOldest(4))
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                // Wait for room instead of dropping: stdin must arrive whole.
                while case .dropped = continuation.yield(Array(buffer[0..<count])) { usleep(1000) }
            }
            continuation.finish()
        }
        reader.start()
        return StdinForwarder(task: Task {
            do {
                for await chunk in chunks { try await remote.write(chunk) }
                try await remote.closeInput()
            } catch {}
        })
    }

    func cancel() { task.cancel() }
}
