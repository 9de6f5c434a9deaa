import Synchronization

/// The progress of a tree: bytes of the files done before the current one, plus its own.
final class TreeProgress: Sendable {
    private let state: Mutex<TransferProgress>
    private let report: (@Sendable (TransferProgress) -> Void)?

    init(total: UInt64, report: (@Sendable (TransferProgress) -> Void)?) {
        state = Mutex(TransferProgress(bytes: 0, total: total, transferred: 0))
        self.report = report
    }

    var snapshot: TransferProgress { state.withLock { $0 } }

    func add(done: UInt64, moved: UInt64) {
        let now = state.withLock { state in
            state.bytes += done
            state.transferred += moved
            return state
        }
        report?(now)
    }

    /// The current file's progress, on top of what was done before it.
    func file(_ file: TransferProgress, after before: TransferProgress) {
        let now = TransferProgress(
            bytes: before.bytes + file.bytes, total: before.total, transferred: before.transferred + file.transferred)
        state.withLock { $0 = now }
        report?(now)
    }
}
