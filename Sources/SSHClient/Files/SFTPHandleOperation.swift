import CLibSSH2

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

    private enum Phase { case opening, working, closing, finished }

    let path: String
    let operation: String
    private let flags: UInt
    private let mode: Int
    private let isDirectory: Bool
    private var phase = Phase.opening
    private var handle: OpaquePointer?
    /// The failure to report once the handle is closed.
    var failure: FileFailure?
    private(set) var isCancelled = false

    init(_ operation: String, path: String, flags: UInt = 0, mode: Int = 0, directory: Bool = false) {
        self.operation = operation
        self.path = path
        self.flags = flags
        self.mode = mode
        isDirectory = directory
    }

    /// Moves data with the open handle.
    func work(_ handle: OpaquePointer, on channel: SFTPChannel) -> Work { .done }

    /// Reports the outcome: `failure` if set, else success.
    func deliver(_ failure: FileFailure?) {}

    override func cancel() { isCancelled = true }

    override func fail(_ failure: FileFailure) {
        guard phase != .finished else { return }
        phase = .finished
        deliver(failure)
    }

    override func step(_ sftp: OpaquePointer, on channel: SFTPChannel) -> Step {
        while true {
            switch phase {
            case .opening:
                if isCancelled { return finish(.connection(.cancelled(command: "\(operation) \(path)"))) }
                let type = isDirectory ? LIBSSH2_SFTP_OPENDIR : LIBSSH2_SFTP_OPENFILE
                guard let opened = libssh2_sftp_open_ex(sftp, path, UInt32(path.utf8.count), flags, mode, type) else {
                    let code = channel.loop.transport.lastErrno
                    if code == LIBSSH2_ERROR_EAGAIN { return .blocked }
                    return finish(channel.failure(code, operation: operation, path: path))
                }
                handle = opened
                phase = .working
            case .working:
                if isCancelled, failure == nil { failure = .connection(.cancelled(command: "\(operation) \(path)")) }
                if failure != nil {
                    phase = .closing
                    continue
                }
                switch work(handle!, on: channel) {
                case .blocked: return .blocked
                case .yielded: return .yielded
                case .parked: return .parked
                case .done: phase = .closing
                }
            case .closing:
                let rc = libssh2_sftp_close_handle(handle!)
                if rc == LIBSSH2_ERROR_EAGAIN { return .blocked }
                handle = nil
                return finish(failure)
            case .finished:
                return .finished
            }
        }
    }

    /// Sets the open file's mode and (access and modification) time, each if given, with one
    /// `fsetstat`; records a failure.
    func setAttributes(_ handle: OpaquePointer, permissions: UInt32?, modified: Int?, on channel: SFTPChannel) -> Work {
        guard permissions != nil || modified != nil else { return .done }
        var attributes = LIBSSH2_SFTP_ATTRIBUTES()
        if let permissions {
            attributes.flags |= UInt(LIBSSH2_SFTP_ATTR_PERMISSIONS)
            attributes.permissions = UInt(permissions)
        }
        if let modified {
            attributes.flags |= UInt(LIBSSH2_SFTP_ATTR_ACMODTIME)
            attributes.atime = UInt(modified)
            attributes.mtime = UInt(modified)
        }
        let rc = libssh2_sftp_fstat_ex(handle, &attributes, 1)
        if rc == LIBSSH2_ERROR_EAGAIN { return .blocked }
        if rc != 0 { failure = channel.failure(rc, operation: "setting the mode and time of", path: path) }
        return .done
    }

    private func finish(_ failure: FileFailure?) -> Step {
        phase = .finished
        deliver(failure)
        return .finished
    }
}
