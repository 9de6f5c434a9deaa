import CLibSSH2

/// One request on the connection's SFTP session, a small state machine on the I/O thread.
///
/// A `LIBSSH2_SFTP` runs one call at a time, so the ``SFTPChannel`` advances only the head of
/// its queue; an operation between two libssh2 calls may yield its turn to the next one.
class SFTPOperation {
    /// What one step did.
    enum Step {
        /// A libssh2 call said EAGAIN: call ``step(_:on:)`` again once the socket moves.
        case blocked
        /// Progress, and at a point where another operation may go first.
        case yielded
        /// Waiting for its consumer: leave the queue until ``SFTPChannel/unpark()``.
        case parked
        /// Done; the outcome has been delivered.
        case finished
    }

    /// Advances the operation with the session's `LIBSSH2_SFTP`.
    func step(_ sftp: OpaquePointer, on channel: SFTPChannel) -> Step { .finished }

    /// Delivers `failure` to the caller: the session or the connection ended first.
    func fail(_ failure: FileFailure) {}

    /// The caller gave up (a cancelled stream): finish at the next step.
    func cancel() {}
}

/// SFTP status codes (`SSH_FX_*`, from `libssh2_sftp_last_error`) as ``RemoteFileError``s.
enum SFTPStatus {
    static func error(_ status: UInt, operation: String, path: String) -> RemoteFileError {
        switch status {
        case UInt(LIBSSH2_FX_NO_SUCH_FILE), UInt(LIBSSH2_FX_NO_SUCH_PATH): return .noSuchFile(path: path)
        case UInt(LIBSSH2_FX_PERMISSION_DENIED), UInt(LIBSSH2_FX_WRITE_PROTECT): return .permissionDenied(path: path)
        case UInt(LIBSSH2_FX_FILE_ALREADY_EXISTS): return .alreadyExists(path: path)
        case UInt(LIBSSH2_FX_DIR_NOT_EMPTY): return .directoryNotEmpty(path: path)
        case UInt(LIBSSH2_FX_NOT_A_DIRECTORY): return .notADirectory(path: path)
        case 24: return .isADirectory(path: path)  // SSH_FX_FILE_IS_A_DIRECTORY (SFTP v6)
        default: return .failed(operation: operation, path: path, reason: "the SFTP server answered \(name(status))")
        }
    }

    /// Whether the server gave only the generic failure, which callers may refine by looking at the path.
    static func isGeneric(_ error: RemoteFileError) -> Bool {
        if case .failed = error { return true }
        return false
    }

    private static func name(_ status: UInt) -> String {
        let names: [UInt: String] = [
            1: "EOF", 4: "FAILURE", 5: "BAD_MESSAGE", 8: "OP_UNSUPPORTED", 14: "NO_SPACE_ON_FILESYSTEM",
            15: "QUOTA_EXCEEDED", 20: "INVALID_FILENAME", 21: "LINK_LOOP",
        ]
        return "SSH_FX_" + (names[status] ?? "status \(status)")
    }
}

/// A request that is one libssh2 SFTP call, repeated while it says EAGAIN.
final class SFTPCall<T>: SFTPOperation {
    /// What one attempt of the call gave.
    enum Attempt {
        case done(T)
        case again
        case failed(Int32)
    }

    private let operation: String
    private let path: String
    private let attempt: (OpaquePointer) -> Attempt
    private var completion: ((Result<T, FileFailure>) -> Void)?

    /// - Parameters:
    ///   - operation: What the call does, for error messages ("stat", "mkdir").
    ///   - path: The path it acts on, for error messages.
    init(
        _ operation: String, path: String, attempt: @escaping (OpaquePointer) -> Attempt,
        completion: @escaping (Result<T, FileFailure>) -> Void
    ) {
        self.operation = operation
        self.path = path
        self.attempt = attempt
        self.completion = completion
    }

    override func step(_ sftp: OpaquePointer, on channel: SFTPChannel) -> Step {
        switch attempt(sftp) {
        case .again: return .blocked
        case .done(let value): deliver(.success(value))
        case .failed(let code): deliver(.failure(channel.failure(code, operation: operation, path: path)))
        }
        return .finished
    }

    override func fail(_ failure: FileFailure) { deliver(.failure(failure)) }

    private func deliver(_ result: Result<T, FileFailure>) {
        completion?(result)
        completion = nil
    }
}

/// The return code of a libssh2 SFTP call as an ``SFTPCall`` attempt.
func sftpAttempt(_ rc: Int32) -> SFTPCall<Void>.Attempt {
    if rc == 0 { return .done(()) }
    return rc == LIBSSH2_ERROR_EAGAIN ? .again : .failed(rc)
}
