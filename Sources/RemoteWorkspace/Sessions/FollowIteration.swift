import SSHClient
import SessionHistory
import Synchronization

/// Turns what a follow loop reports (see ``FollowScript``) into the events of one kind of follow.
protocol FollowDecoder: Sendable {
    associatedtype Event: Sendable
    /// Bytes appended to the file.
    mutating func appended(_ bytes: [UInt8]) -> [Event]
    /// The file was truncated or replaced: reading starts again at its first byte.
    mutating func restarted(reason: String) -> [Event]
    /// The file is gone.
    func missing() -> [Event]
    /// The box's shell could not look for want of file descriptors; the loop starts again.
    func boxOutOfDescriptors() -> [Event]
}

/// The iteration every follow shares: it reads the remote loop's sections, decodes them, and
/// after a lost link starts the loop again over the next link from the last complete report.
struct FollowIteration<Decoder: FollowDecoder> {
    private let lifetime: FollowLifetime
    private var output: CommandOutput.AsyncIterator
    private var reader: SectionReader
    private var decoder: Decoder
    private var position: FollowScript.Position
    private var pending: [Decoder.Event] = []
    private var stderr: [UInt8] = []
    /// Whether the box's shortage of descriptors was reported since the loop last looked.
    private var shortageReported = false

    init(lifetime: FollowLifetime, decoder: Decoder, offset: Int) {
        self.lifetime = lifetime
        self.decoder = decoder
        output = lifetime.control.remote.output.makeAsyncIterator()
        reader = SectionReader(boundary: lifetime.control.loop.boundary)
        position = lifetime.control.loop.initialPosition(offset: offset)
    }

    /// The next event; nil once the follow was stopped or the task cancelled.
    mutating func next() async throws -> Decoder.Event? {
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
                // A connection without a reconnect policy throws here, and so does a final loss.
                let remote = try control.restart(at: position)
                output = remote.output.makeAsyncIterator()
                reader = SectionReader(boundary: control.loop.boundary)
                continue
            }
            switch chunk {
            case .stdout(let bytes):
                for section in reader.feed(bytes) { pending += decode(section) }
            case .stderr(let bytes):
                stderr += bytes.prefix(Swift.max(0, 4096 - stderr.count))
            case nil:
                if control.isStopping { return nil }
                try await startAgainAfterItsEnd()
            }
        }
    }

    /// After the loop ended on its own: when it ended for want of descriptors on the box, says so
    /// (once) and starts it again where it was, ``FollowScript/descriptorRetry`` later; otherwise
    /// throws its end.
    private mutating func startAgainAfterItsEnd() async throws {
        let control = lifetime.control
        let status = try await control.remote.exitStatus()
        guard status == FollowScript.outOfDescriptorsStatus else {
            throw RemoteSessionError.remoteCommandFailed(
                step: FollowScript.script.step, status: status.description, stderr: String(decoding: stderr, as: UTF8.self))
        }
        if !shortageReported { pending += decoder.boxOutOfDescriptors() }
        shortageReported = true
        try? await Task.sleep(for: FollowScript.descriptorRetry)
        if Task.isCancelled || control.isStopping { return }
        output = try control.restart(at: position).output.makeAsyncIterator()
        reader = SectionReader(boundary: control.loop.boundary)
        stderr = []
    }

    /// The events of one section; ``position`` becomes where the loop stands after it.
    private mutating func decode(_ section: OutputSection) -> [Decoder.Event] {
        let words = section.fields(3)
        if words.first != "nofd" { shortageReported = false }
        switch words.first {
        case "data":
            if words.count > 2, let start = Int(words[1]) {
                position = FollowScript.Position(offset: start + section.content.count, identity: words[2])
            }
            return decoder.appended(section.content)
        case "reset":
            position = FollowScript.Position(offset: 0, identity: "")  // the loop took the new file's identity
            return decoder.restarted(reason: words.count > 1 ? words[1] : "changed")
        case "gone":
            return decoder.missing()
        case "nofd":
            defer { shortageReported = true }
            return shortageReported ? [] : decoder.boxOutOfDescriptors()
        default:
            return []
        }
    }
}

/// Owns a follow's remote loop: stops it on request, and when the follow is dropped.
final class FollowControl: Sendable {
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

    /// Stops the loop if it still runs, and returns once its process group is gone.
    func stopAndWait() async throws {
        stop()
        do {
            _ = try await remote.exitStatus()  // it ended before the stop: gone as well
        } catch let error as SSHError {
            guard case .cancelled = error else { throw error }
        }
    }

    /// Starts the loop again at `position`, after its connection was lost or it ended for want of
    /// descriptors on the box.
    func restart(at position: FollowScript.Position) throws -> RemoteCommand {
        let remote = try loop.start(at: position)
        current.withLock { $0 = remote }
        if isStopping { remote.cancel() }
        return remote
    }

    deinit { stop() }
}

/// Held by an iterator and its copies: the last one dropped stops the remote loop.
final class FollowLifetime: Sendable {
    let control: FollowControl

    init(_ control: FollowControl) {
        self.control = control
    }

    deinit { control.stop() }
}
