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
    func step(_ sftp: LibSSH2SFTP, on channel: SFTPChannel) -> Step { .finished }

    /// Delivers `failure` to the caller: the session or the connection ended first.
    func fail(_ failure: FileFailure) {}

    /// The caller gave up (a cancelled stream): finish at the next step.
    func cancel() {}
}

/// An SFTP status (`SSH_FX_*`), as the server sent it (draft-ietf-secsh-filexfer; 24 is from v6).
struct SFTPStatusCode: Equatable {
    let rawValue: UInt
    static let noSuchFile = SFTPStatusCode(rawValue: 2)
    static let permissionDenied = SFTPStatusCode(rawValue: 3)
    static let noSuchPath = SFTPStatusCode(rawValue: 10)
    static let fileAlreadyExists = SFTPStatusCode(rawValue: 11)
    static let writeProtect = SFTPStatusCode(rawValue: 12)
    static let directoryNotEmpty = SFTPStatusCode(rawValue: 18)
    static let notADirectory = SFTPStatusCode(rawValue: 19)
    static let fileIsADirectory = SFTPStatusCode(rawValue: 24)

    /// The protocol's name for it, for messages: `SSH_FX_QUOTA_EXCEEDED`.
    var name: String {
        let names: [UInt: String] = [
            1: "EOF", 4: "FAILURE", 5: "BAD_MESSAGE", 8: "OP_UNSUPPORTED", 14: "NO_SPACE_ON_FILESYSTEM",
            15: "QUOTA_EXCEEDED", 20: "INVALID_FILENAME", 21: "LINK_LOOP",
        ]
        return "SSH_FX_" + (names[rawValue] ?? "status \(rawValue)")
    }
}

/// SFTP statuses as ``RemoteFileError``s.
enum SFTPStatus {
    static func error(_ status: SFTPStatusCode, operation: String, path: String) -> RemoteFileError {
        switch status {
        case .noSuchFile, .noSuchPath: return .noSuchFile(path: path)
        case .permissionDenied, .writeProtect: return .permissionDenied(path: path)
        case .fileAlreadyExists: return .alreadyExists(path: path)
        case .directoryNotEmpty: return .directoryNotEmpty(path: path)
        case .notADirectory: return .notADirectory(path: path)
        case .fileIsADirectory: return .isADirectory(path: path)
        default: return .failed(operation: operation, path: path, reason: "the SFTP server answered \(status.name)")
        }
    }

    /// Whether the server gave only the generic failure, which callers may refine by looking at the path.
    static func isGeneric(_ error: RemoteFileError) -> Bool {
        if case .failed = error { return true }
        return false
    }
}

/// A request that is one libssh2 SFTP call, repeated while it says EAGAIN.
final class SFTPCall<T>: SFTPOperation {
    private let operation: String
    private let path: String
    private let attempt: (LibSSH2SFTP) -> LibSSH2Outcome<T>
    private var completion: ((Result<T, FileFailure>) -> Void)?

    /// - Parameters:
    ///   - operation: What the call does, for error messages ("stat", "mkdir").
    ///   - path: The path it acts on, for error messages.
    init(
        _ operation: String, path: String, attempt: @escaping (LibSSH2SFTP) -> LibSSH2Outcome<T>,
        completion: @escaping (Result<T, FileFailure>) -> Void
    ) {
        self.operation = operation
        self.path = path
        self.attempt = attempt
        self.completion = completion
    }

    override func step(_ sftp: LibSSH2SFTP, on channel: SFTPChannel) -> Step {
        switch attempt(sftp) {
        case .wouldBlock: return .blocked
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
