/// Reads a whole directory through one SFTP handle: names and `lstat` attributes, without `.`
/// and `..`.
///
/// `libssh2_sftp_readdir_ex` drops an entry whose name does not fit the buffer and says
/// `LIBSSH2_ERROR_BUFFER_TOO_SMALL`; this operation then fails with ``nameTooLong`` and the
/// caller lists again with a bigger buffer, so no entry is ever lost silently.
final class SFTPListDirectory: SFTPHandleOperation {
    /// The failure reason that asks for a retry with a bigger buffer.
    static let nameTooLong = "a name did not fit the listing buffer"
    /// The failure reason when the listing ran past its deadline (a big directory over a slow
    /// link: READDIR requests go one round trip at a time).
    static let tooSlow = "the listing ran past its deadline"

    private var names: [UInt8]
    private var longEntry: [UInt8]
    private var entries: [ListedEntry] = []
    private var completion: ((Result<[ListedEntry], FileFailure>) -> Void)?
    private let deadline: ContinuousClock.Instant?

    /// - Parameter deadline: When to give up with ``tooSlow``; nil lists to the end.
    init(
        path: String, bufferSize: Int, deadline: ContinuousClock.Instant? = nil,
        completion: @escaping (Result<[ListedEntry], FileFailure>) -> Void
    ) {
        self.deadline = deadline
        names = [UInt8](repeating: 0, count: bufferSize)
        longEntry = [UInt8](repeating: 0, count: bufferSize)
        self.completion = completion
        super.init("listing", path: path, directory: true)
    }

    override func work(_ handle: LibSSH2SFTP.Handle, on channel: SFTPChannel) -> Work {
        for _ in 0..<1024 {
            let length: Int
            let attributes: RemoteFileAttributes
            switch handle.nextEntry(name: &names, longEntry: &longEntry) {
            case .wouldBlock: return .blocked
            case .done(nil): return .done
            case .done(let entry?): (length, attributes) = entry
            case .failed(LibSSH2Code.bufferTooSmall):
                failure = .file(.failed(operation: operation, path: path, reason: Self.nameTooLong))
                return .done
            case .failed(let code):
                failure = channel.failure(code, operation: operation, path: path)
                return .done
            }
            // Only here, with a name just returned, is no READDIR in flight: libssh2 1.10 keeps
            // the request state on the SFTP session, so leaving mid-request would hand the
            // answer to the next listing of any directory.
            if isPastDeadline() { return .done }
            let name = Array(names[0..<length])
            if name == [46] || name == [46, 46] { continue }
            entries.append(ListedEntry(name: name, attributes: attributes, target: nil))
        }
        return .yielded
    }

    /// Sets the ``tooSlow`` failure once the deadline has passed.
    private func isPastDeadline() -> Bool {
        guard let deadline, ContinuousClock.now >= deadline else { return false }
        failure = .file(.failed(operation: operation, path: path, reason: Self.tooSlow))
        return true
    }

    override func deliver(_ failure: FileFailure?) {
        let result: Result<[ListedEntry], FileFailure> = failure.map { .failure($0) } ?? .success(entries)
        completion?(result)
        completion = nil
    }
}
