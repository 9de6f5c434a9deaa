import Foundation
import Platform
import Synchronization

/// Every file descriptor of this process taken but `spare`, as when an app embedding the library
/// has used them up: the soft limit brought down near what is open (opening a million would take
/// a while), then /dev/null opened until only `spare` can be. While it lasts, a thread of its own
/// takes again within a millisecond any descriptor beyond those that something else in the process
/// closes (a proxy's cut sockets, the connection's own). ``release()`` gives them back and
/// restores the limit.
///
/// One is left by default because Swift's libdispatch on Linux traps when its worker-pool monitor
/// cannot open `/proc/TID/stat` (``LibdispatchDescriptorTrapTests`` shows it without rws): a
/// process that holds every descriptor dies of it at the monitor's next look, whatever its code
/// does. The taker counts what is free without opening anything, so the one left stays free.
///
/// It holds for the whole process: a test using it runs where no other test shares the process.
public final class DescriptorExhaustion: Sendable {
    private let held = Mutex<[Int32]>([])
    private let released = Atomic(false)
    private let limit: UInt64
    private let lowered: Int32
    private let spare: Int
    private let taker = Mutex<JoinableThread?>(nil)

    /// Takes every descriptor left but `spare`, after lowering the soft limit to `headroom` above
    /// those open now.
    public init(headroom: Int = 64, leaving spare: Int = 1) throws {
        limit = SystemCall.openFileLimit().soft
        self.spare = spare
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        lowered = Int32(open + headroom)
        guard SystemCall.setOpenFileLimit(to: UInt64(lowered)) else {
            throw TestServerError.commandFailed("cannot lower the open-file limit to \(lowered)")
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

    /// Opens /dev/null, keeping each, until only `spare` descriptors are free.
    private func takeWhatIsFree() {
        var taken: [Int32] = []
        for _ in 0..<max(0, free() - spare) {
            let fd = Glibc.open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { break }
            taken.append(fd)
        }
        if !taken.isEmpty { held.withLock { $0 += taken } }
    }

    /// The descriptor numbers below the limit that are not open: `fcntl` asks of each without
    /// opening anything.
    private func free() -> Int {
        (0..<lowered).count { fcntl($0, F_GETFD) == -1 }
    }
}
