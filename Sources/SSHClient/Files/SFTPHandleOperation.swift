/// An SFTP request that opens a file or directory handle, works with it, and closes it.
///
/// Subclasses implement ``work(_:on:)`` and ``deliver(_:)``; the handle is always closed
/// before the outcome is delivered, also after a failure or a cancellation.
class SFTPHandleOperation: SFTPOperation {
    enum Work {
        case blocked
        case yielded
        case parked
        /// Finished (successfully, or with the failure the subclass recorded).
        case done
    }

    private enum Phase {
        case opening
        case working(LibSSH2SFTP.Handle)
        case closing(LibSSH2SFTP.Handle)
        case finished
    }

    let path: String
    let operation: String
    private let flags: LibSSH2SFTP.OpenFlags
    private let mode: Int
    private let isDirectory: Bool
    private var phase = Phase.opening
    /// The failure to report once the handle is closed.
    var failure: FileFailure?
    private(set) var isCancelled = false

    init(_ operation: String, path: String, flags: LibSSH2SFTP.OpenFlags = [], mode: Int = 0, directory: Bool = false) {
        self.operation = operation
        self.path = path
        self.flags = flags
        self.mode = mode
        isDirectory = directory
    }

    /// Moves data with the open handle.
    func work(_ handle: LibSSH2SFTP.Handle, on channel: SFTPChannel) -> Work { .done }

    /// Reports the outcome: `failure` if set, else success.
    func deliver(_ failure: FileFailure?) {}

    override func cancel() { isCancelled = true }

    override func fail(_ failure: FileFailure) {
        if case .finished = phase { return }
        phase = .finished
        deliver(failure)
    }

    override func step(_ sftp: LibSSH2SFTP, on channel: SFTPChannel) -> Step {
        while true {
            switch phase {
            case .opening:
                if isCancelled { return finish(.connection(.cancelled(command: "\(operation) \(path)"))) }
                switch sftp.open(path, flags: flags, mode: mode, directory: isDirectory) {
                case .wouldBlock: return .blocked
                case .failed(let code): return finish(channel.failure(code, operation: operation, path: path))
                case .done(let handle): phase = .working(handle)
                }
            case .working(let handle):
                if isCancelled, failure == nil { failure = .connection(.cancelled(command: "\(operation) \(path)")) }
                if failure != nil {
                    phase = .closing(handle)
                    continue
                }
                switch work(handle, on: channel) {
                case .blocked: return .blocked
                case .yielded: return .yielded
                case .parked: return .parked
                case .done: phase = .closing(handle)
                }
            case .closing(let handle):
                if case .wouldBlock = handle.close() { return .blocked }
                return finish(failure)
            case .finished:
                return .finished
            }
        }
    }

    /// Sets the open file's mode and (access and modification) time, each if given, with one
    /// `fsetstat`; records a failure.
    func setAttributes(_ handle: LibSSH2SFTP.Handle, permissions: UInt32?, modified: Int?, on channel: SFTPChannel) -> Work {
        guard permissions != nil || modified != nil else { return .done }
        switch handle.setAttributes(permissions: permissions, modified: modified) {
        case .wouldBlock: return .blocked
        case .failed(let code): failure = channel.failure(code, operation: "setting the mode and time of", path: path)
        case .done: break
        }
        return .done
    }

    private func finish(_ failure: FileFailure?) -> Step {
        phase = .finished
        deliver(failure)
        return .finished
    }
}
