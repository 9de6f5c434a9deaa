import SSHClient
import SessionHistory
import Synchronization

/// A session followed live: the ``SessionFollowEvent``s of one polling loop on the box, as an
/// async sequence. Iterate it once.
///
/// The remote loop runs until the follow is stopped. Nothing else ends it: OpenSSH keeps a silent
/// command running even after its connection is gone. Any of these stops it, by killing its
/// process group on the box:
/// - the consumer stops iterating: it breaks out of `for try await`, its task is cancelled, or it
///   drops the iterator (or never iterates and drops the follow);
/// - ``stop()``, which also waits until the loop is gone.
///
/// The first ones start the stop and return at once, so call ``stop()`` before closing the
/// connection: closing does not wait for stops under way.
///
/// On a connection with a reconnect policy (`SSHConnectionConfiguration.reconnect`) a lost link
/// does not end the follow: the loop starts again over the next link from the last complete
/// report, so no line is lost or shown twice.
///
/// Iteration ends (`nil`) after a stop or a cancellation. It throws `SSHError` when the
/// connection fails for good, and ``RemoteSessionError/remoteCommandFailed(step:status:stderr:)``
/// when the remote loop ends by itself (someone killed it).
public struct SessionFollow: AsyncSequence, Sendable {
    public typealias Element = SessionFollowEvent

    private let control: Control
    private let offset: Int

    init(loop: FollowScript.Loop, remote: RemoteCommand, offset: Int) {
        control = Control(loop: loop, remote: remote)
        self.offset = offset
    }

    /// Starts iterating; dropping the iterator stops the remote loop.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lifetime: IterationLifetime(control), offset: offset)
    }

    /// Stops the remote loop if it still runs, and returns once its process group is gone.
    ///
    /// Iteration then ends. Safe to call more than once, and while another task iterates.
    ///
    /// - Throws: `SSHError.stopFailed` when processes of the loop still run after the kill,
    ///   `SSHError.stopUnverified` when
    ///   their end could not be checked; another `SSHError` when the connection closed or failed
    ///   before the loop was stopped: it may then still run on the box.
    public func stop() async throws {
        control.stop()
        do {
            _ = try await control.remote.exitStatus()  // it ended before the stop: gone as well
        } catch let error as SSHError {
            guard case .cancelled = error else { throw error }
        }
    }

    /// The events in arrival order.
    public struct Iterator: AsyncIteratorProtocol {
        private let lifetime: IterationLifetime
        private var output: CommandOutput.AsyncIterator
        private var reader: SectionReader
        private var follower: SessionFollower
        private var position: FollowScript.Position
        private var pending: [SessionFollowEvent] = []
        private var stderr: [UInt8] = []

        init(lifetime: IterationLifetime, offset: Int) {
            self.lifetime = lifetime
            output = lifetime.control.remote.output.makeAsyncIterator()
            reader = SectionReader(boundary: lifetime.control.loop.boundary)
            follower = SessionFollower(byteOffset: offset)
            position = lifetime.control.loop.initialPosition(offset: offset)
        }

        /// The next event; nil once the follow was stopped or the task cancelled.
        public mutating func next() async throws -> SessionFollowEvent? {
            let control = lifetime.control
            while true {
                if Task.isCancelled || control.isStopping {
                    control.stop()
                    return nil
                }
                if !pending.isEmpty { return pending.removeFirst() }
                let chunk: CommandOutputEvent?
                do {
                    chunk = try await output.next()
                } catch {
                    if Task.isCancelled || control.isStopping { continue }
                    guard case SSHError.connectionLost = error else { throw error }
                    // The link dropped: go on from the last complete report over the next link (a
                    // connection without a reconnect policy throws here, and so does a final loss).
                    let remote = try control.restart(at: position)
                    output = remote.output.makeAsyncIterator()
                    reader = SectionReader(boundary: control.loop.boundary)
                    continue
                }
                switch chunk {
                case .stdout(let bytes):
                    for section in reader.feed(bytes) {
                        pending += FollowScript.events(of: section, follower: &follower, position: &position)
                    }
                case .stderr(let bytes):
                    stderr += bytes.prefix(Swift.max(0, 4096 - stderr.count))
                case nil:
                    if control.isStopping { return nil }
                    let status = try await control.remote.exitStatus()
                    throw RemoteSessionError.remoteCommandFailed(
                        step: FollowScript.script.step, status: status.description, stderr: String(decoding: stderr, as: UTF8.self))
                }
            }
        }
    }
}

extension SessionFollow {
    /// Owns the remote loop: stops it on request, and when the follow is dropped.
    final class Control: Sendable {
        let loop: FollowScript.Loop
        private let current: Mutex<RemoteCommand>
        private let stopping = Atomic<Bool>(false)

        init(loop: FollowScript.Loop, remote: RemoteCommand) {
            self.loop = loop
            current = Mutex(remote)
        }

        /// The remote loop running now.
        var remote: RemoteCommand { current.withLock { $0 } }

        var isStopping: Bool { stopping.load(ordering: .acquiring) }

        /// Starts killing the remote loop's process group (once).
        func stop() {
            if stopping.exchange(true, ordering: .acquiringAndReleasing) { return }
            remote.cancel()
        }

        /// Starts the loop again at `position`, after its connection was lost.
        func restart(at position: FollowScript.Position) throws -> RemoteCommand {
            let remote = try loop.start(at: position)
            current.withLock { $0 = remote }
            if isStopping { remote.cancel() }
            return remote
        }

        deinit { stop() }
    }

    /// Held by an iterator and its copies: the last one dropped stops the remote loop.
    final class IterationLifetime: Sendable {
        let control: Control

        init(_ control: Control) {
            self.control = control
        }

        deinit { control.stop() }
    }
}
