import Foundation
import Platform
import Synchronization

/// Every file descriptor of this process taken, as when an app embedding the library has used
/// them up: the soft limit brought down near what is open (opening a million would take a while),
/// then /dev/null opened until `EMFILE`. While it lasts, a thread of its own takes again within a
/// millisecond any descriptor something else in the process closes (a proxy's cut sockets, the
/// connection's own), so that none is left for the code under test. ``release()`` gives them back
/// and restores the limit.
///
/// It holds for the whole process: a test using it runs where no other test shares the process.
public final class DescriptorExhaustion: Sendable {
    private let held = Mutex<[Int32]>([])
    private let released = Atomic(false)
    private let limit: UInt64
    private let taker = Mutex<JoinableThread?>(nil)

    /// Takes every descriptor left, after lowering the soft limit to `headroom` above those open now.
    public init(headroom: Int = 64) throws {
        limit = SystemCall.openFileLimit().soft
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        guard SystemCall.setOpenFileLimit(to: UInt64(open + headroom)) else {
            throw TestServerError.commandFailed("cannot lower the open-file limit to \(open + headroom)")
        }
        takeWhatIsFree()
        let thread = try JoinableThread(stackSize: 64 * 1024) { [self] in
            while !released.load(ordering: .acquiring) {
                takeWhatIsFree()
                usleep(1000)
            }
        }
        taker.withLock { $0 = thread }
    }

    /// The descriptors taken.
    public var count: Int { held.withLock { $0.count } }

    /// Closes what was taken and puts the limit back; once.
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        taker.withLock { $0 }?.join()
        let taken = held.withLock { held in
            defer { held = [] }
            return held
        }
        for fd in taken { Glibc.close(fd) }
        SystemCall.setOpenFileLimit(to: limit)
    }

    /// Opens /dev/null until `EMFILE`, keeping each.
    private func takeWhatIsFree() {
        var taken: [Int32] = []
        while true {
            let fd = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            taken.append(fd)
        }
        if !taken.isEmpty { held.withLock { $0 += taken } }
    }

}
