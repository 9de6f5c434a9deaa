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

    private let control: FollowControl
    private let offset: Int
    private let loaded: Conversation?

    init(loop: FollowScript.Loop, remote: RemoteCommand, offset: Int, continuing loaded: Conversation?) {
        control = FollowControl(loop: loop, remote: remote)
        self.offset = offset
        self.loaded = loaded
    }

    /// Starts iterating; dropping the iterator stops the remote loop.
    public func makeAsyncIterator() -> Iterator {
        Iterator(
            iteration: FollowIteration(
                lifetime: FollowLifetime(control), decoder: Decoder(offset: offset, continuing: loaded), offset: offset))
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
        try await control.stopAndWait()
    }

    /// The events in arrival order.
    public struct Iterator: AsyncIteratorProtocol {
        private var iteration: FollowIteration<Decoder>

        init(iteration: FollowIteration<Decoder>) {
            self.iteration = iteration
        }

        /// The next event; nil once the follow was stopped or the task cancelled.
        public mutating func next() async throws -> SessionFollowEvent? {
            try await iteration.next()
        }
    }

    /// A session file's appended lines as conversation events.
    struct Decoder: FollowDecoder {
        private var follower: SessionFollower

        init(offset: Int, continuing loaded: Conversation?) {
            follower = loaded.map { SessionFollower(continuing: $0, byteOffset: offset) } ?? SessionFollower(byteOffset: offset)
        }

        mutating func appended(_ bytes: [UInt8]) -> [SessionFollowEvent] {
            follower.append(bytes).events.map { .conversation($0) }
        }

        mutating func restarted(reason: String) -> [SessionFollowEvent] {
            follower = SessionFollower()
            return [.restarted(reason: reason)]
        }

        func missing() -> [SessionFollowEvent] { [.fileMissing] }

        func boxOutOfDescriptors() -> [SessionFollowEvent] { [.boxOutOfDescriptors] }
    }
}
